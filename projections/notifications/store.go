package notifications

import (
	"context"
	"fmt"

	// jet by name: its dot import would clash with this package's Projection.
	pg "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
	"agora/internal/rules/notice"
)

// insertChunk bounds the rows of one INSERT (eleven parameters a row,
// under Postgres's 65,535).
const insertChunk = 2000

// place is where a post lives and who wrote it.
type place struct {
	ChannelID, SeriesID, CreatorID uuid.UUID
}

// lookups are what the batch's changes do not carry, read once per batch.
type lookups struct {
	posts     map[uuid.UUID]place     // threads of comments and replies
	comments  map[uuid.UUID]uuid.UUID // the creators of the comments replies answer
	community map[uuid.UUID]uuid.UUID // forums' communities
	members   map[uuid.UUID][]uuid.UUID
}

func (p *Projection) lookup(ctx context.Context, b *batch) (lookups, error) {
	l := lookups{posts: map[uuid.UUID]place{}, comments: map[uuid.UUID]uuid.UUID{}, community: map[uuid.UUID]uuid.UUID{}, members: map[uuid.UUID][]uuid.UUID{}}
	var posts, comments, channels []uuid.UUID
	for _, s := range b.sources {
		switch s.table {
		case "threads":
			l.posts[s.id] = place{ChannelID: s.channel, SeriesID: s.series, CreatorID: s.creator}
		case "replies":
			posts = append(posts, s.thread)
			if s.parent != nil {
				comments = append(comments, *s.parent)
			}
		case "private_messages":
			channels = append(channels, s.channel)
		}
	}
	if len(posts) > 0 {
		t := table.Threads
		rows, err := db.All[struct{ ID, ChannelID, SeriesID, CreatorID uuid.UUID }](ctx, p.db, pg.SELECT(t.ID.AS("id"), t.ChannelID.AS("channel_id"), t.SeriesID.AS("series_id"), t.CreatorID.AS("creator_id")).
			FROM(t).WHERE(db.Any(t.ID, posts)))
		if err != nil {
			return l, fmt.Errorf("notifications: posts: %w", err)
		}
		for _, r := range rows {
			l.posts[r.ID] = place{ChannelID: r.ChannelID, SeriesID: r.SeriesID, CreatorID: r.CreatorID}
		}
	}
	if len(comments) > 0 {
		r := table.Replies
		rows, err := db.All[struct{ ID, CreatorID uuid.UUID }](ctx, p.db,
			pg.SELECT(r.ID.AS("id"), r.CreatorID.AS("creator_id")).FROM(r).WHERE(db.Any(r.ID, comments)))
		if err != nil {
			return l, fmt.Errorf("notifications: comments: %w", err)
		}
		for _, c := range rows {
			l.comments[c.ID] = c.CreatorID
		}
	}
	var forums []uuid.UUID
	for _, pl := range l.posts {
		forums = append(forums, pl.SeriesID)
	}
	if len(forums) > 0 {
		f := table.Series
		rows, err := db.All[struct{ ID, CommunityID uuid.UUID }](ctx, p.db,
			pg.SELECT(f.ID.AS("id"), f.CommunityID.AS("community_id")).FROM(f).WHERE(db.Any(f.ID, forums)))
		if err != nil {
			return l, fmt.Errorf("notifications: forums: %w", err)
		}
		for _, r := range rows {
			l.community[r.ID] = r.CommunityID
		}
	}
	if len(channels) > 0 {
		cm := table.ChannelMembers
		rows, err := db.All[struct{ ChannelID, UserID uuid.UUID }](ctx, p.db,
			pg.SELECT(cm.ChannelID.AS("channel_id"), cm.UserID.AS("user_id")).FROM(cm).WHERE(db.Any(cm.ChannelID, channels)))
		if err != nil {
			return l, fmt.Errorf("notifications: channel members: %w", err)
		}
		for _, r := range rows {
			l.members[r.ChannelID] = append(l.members[r.ChannelID], r.UserID)
		}
	}
	return l, nil
}

// rows are the notifications the batch's sources make, by id (a later
// change's row wins), before the readers are checked.
func (b *batch) rows(l lookups) map[uuid.UUID]model.Notifications {
	out := map[uuid.UUID]model.Notifications{}
	for _, s := range b.sources {
		add := func(to uuid.UUID, kind string) {
			if to == s.creator {
				return // never told of one's own writing
			}
			n := model.Notifications{ID: ID(to, kind, s.id), UserID: to, Kind: kind, SourceID: s.id,
				Preview: Preview(s.raw), CreatedOn: s.created.UTC()}
			if !s.anonymous {
				n.AuthorID = &s.creator
			}
			if s.table == "private_messages" {
				n.ChannelID = &s.channel
			} else {
				pl := l.posts[s.thread]
				post, community := s.thread, l.community[pl.SeriesID]
				n.PostID, n.SeriesID, n.ChannelID, n.CommunityID = &post, &pl.SeriesID, &pl.ChannelID, &community
			}
			out[n.ID] = n
		}
		if s.table == "private_messages" {
			if s.update {
				continue // an edit tells nobody again
			}
			for _, m := range l.members[s.channel] {
				add(m, notice.Message)
			}
			continue
		}
		pl, ok := l.posts[s.thread]
		if !ok {
			// The post is gone: its deletion removes what was written of it.
			continue
		}
		if s.table == "replies" && !s.update {
			if s.parent == nil {
				add(pl.CreatorID, notice.Comment)
			} else if c, ok := l.comments[*s.parent]; ok {
				add(c, notice.Reply)
			}
		}
		for _, m := range s.newMentions() {
			add(m, notice.Mention)
		}
	}
	return out
}

// readers keeps the forum rows whose recipient may read the post's (or
// the forum's) channel now; messages need no check (their channel's
// members are their recipients), nor a community-join, which has no
// channel (joinRows keeps only active memberships).
func (p *Projection) readers(ctx context.Context, rows map[uuid.UUID]model.Notifications) ([]model.Notifications, error) {
	var users, channels []uuid.UUID
	seenU, seenC := map[uuid.UUID]bool{}, map[uuid.UUID]bool{}
	for _, n := range rows {
		if n.Kind == notice.Message || n.ChannelID == nil {
			continue
		}
		if !seenU[n.UserID] {
			seenU[n.UserID] = true
			users = append(users, n.UserID)
		}
		if !seenC[*n.ChannelID] {
			seenC[*n.ChannelID] = true
			channels = append(channels, *n.ChannelID)
		}
	}
	may := map[[2]uuid.UUID]bool{}
	if len(users) > 0 {
		v, c, f := table.Users.AS("v"), table.Channels.AS("c"), table.Series.AS("f")
		pairs, err := db.All[struct{ ChannelID, UserID uuid.UUID }](ctx, p.db,
			pg.SELECT(c.ID.AS("channel_id"), v.ID.AS("user_id")).
				FROM(c.INNER_JOIN(f, f.ID.EQ(c.SeriesID)).CROSS_JOIN(v)).
				WHERE(db.Any(c.ID, channels).AND(db.Any(v.ID, users)).
					AND(access.ChannelRead(c.Kind, f.ID, f.CommunityID, v.ID, v.Role.EQ(pg.String("super"))))))
		if err != nil {
			return nil, fmt.Errorf("notifications: readers: %w", err)
		}
		for _, r := range pairs {
			may[[2]uuid.UUID{r.ChannelID, r.UserID}] = true
		}
	}
	out := make([]model.Notifications, 0, len(rows))
	for _, n := range rows {
		if n.Kind == notice.Message || n.ChannelID == nil || may[[2]uuid.UUID{*n.ChannelID, n.UserID}] {
			out = append(out, n)
		}
	}
	return out, nil
}

// write applies the batch: new rows, then the edits' previews and dropped
// mentions (the last edit of a source says them), then the deletions, so
// that a source written and deleted in one batch leaves nothing.
func (p *Projection) write(ctx context.Context, b *batch) error {
	l, err := p.lookup(ctx, b)
	if err != nil {
		return err
	}
	all := b.rows(l)
	meetups, err := p.meetupRows(ctx, b.meetups)
	if err != nil {
		return err
	}
	for id, n := range meetups {
		all[id] = n
	}
	access, err := p.accessRows(ctx, b.access)
	if err != nil {
		return err
	}
	for id, n := range access {
		all[id] = n
	}
	joins, err := p.joinRows(ctx, b.joined)
	if err != nil {
		return err
	}
	for id, n := range joins {
		all[id] = n
	}
	rows, err := p.readers(ctx, all)
	if err != nil {
		return err
	}
	edited := map[uuid.UUID]source{}
	for _, s := range b.sources {
		if s.update {
			edited[s.id] = s
		}
	}
	n := p.n
	return db.InTx(ctx, p.db, func(tx pgx.Tx) error {
		for i := 0; i < len(rows); i += insertChunk {
			chunk := rows[i:min(i+insertChunk, len(rows))]
			if _, err := db.Exec(ctx, tx, n.INSERT(n.AllColumns).MODELS(chunk).ON_CONFLICT(n.ID).DO_NOTHING()); err != nil {
				return fmt.Errorf("notifications: insert: %w", err)
			}
		}
		for _, s := range edited {
			preview := pg.String(Preview(s.raw))
			if _, err := db.Exec(ctx, tx, n.UPDATE(n.Preview).SET(preview).
				WHERE(n.SourceID.EQ(pg.UUID(s.id)).AND(n.Preview.NOT_EQ(preview)))); err != nil {
				return fmt.Errorf("notifications: preview: %w", err)
			}
			if s.table == "private_messages" {
				continue
			}
			mentioned := s.mentions
			if mentioned == nil {
				mentioned = []uuid.UUID{}
			}
			if _, err := db.Exec(ctx, tx, n.DELETE().WHERE(n.SourceID.EQ(pg.UUID(s.id)).
				AND(n.Kind.EQ(pg.String(notice.Mention))).AND(pg.NOT(db.Any(n.UserID, mentioned))))); err != nil {
				return fmt.Errorf("notifications: mentions removed: %w", err)
			}
		}
		if err := removeInvitations(ctx, tx, n, b.meetupsGone); err != nil {
			return err
		}
		if err := removeAccess(ctx, tx, n, b.accessGone); err != nil {
			return err
		}
		if len(b.deleted) > 0 {
			gone := db.Any(n.SourceID, b.deleted)
			if len(b.deletedThread) > 0 {
				gone = gone.OR(db.Any(n.PostID, b.deletedThread))
			}
			if _, err := db.Exec(ctx, tx, n.DELETE().WHERE(gone)); err != nil {
				return fmt.Errorf("notifications: deleted: %w", err)
			}
		}
		return nil
	})
}

// removeOrphans deletes the notifications of n whose source no longer
// exists.
func removeOrphans(ctx context.Context, q db.Querier, n *table.NotificationsTable) error {
	t, r, m, mt, s, c := table.Threads, table.Replies, table.PrivateMessages, table.Meetings, table.Series, table.Communities
	_, err := db.Exec(ctx, q, n.DELETE().WHERE(
		pg.NOT(pg.EXISTS(pg.SELECT(t.ID).FROM(t).WHERE(t.ID.EQ(n.SourceID)))).
			AND(pg.NOT(pg.EXISTS(pg.SELECT(r.ID).FROM(r).WHERE(r.ID.EQ(n.SourceID))))).
			AND(pg.NOT(pg.EXISTS(pg.SELECT(m.ID).FROM(m).WHERE(m.ID.EQ(n.SourceID))))).
			AND(pg.NOT(pg.EXISTS(pg.SELECT(mt.ID).FROM(mt).WHERE(mt.ID.EQ(n.SourceID))))).
			// A forum-access notice's source is its forum, a
			// community-join's its community.
			AND(pg.NOT(pg.EXISTS(pg.SELECT(s.ID).FROM(s).WHERE(s.ID.EQ(n.SourceID))))).
			AND(pg.NOT(pg.EXISTS(pg.SELECT(c.ID).FROM(c).WHERE(c.ID.EQ(n.SourceID)))))))
	return err
}
