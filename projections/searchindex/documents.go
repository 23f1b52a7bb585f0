package searchindex

import (
	"context"
	"fmt"
	"strings"
	"time"

	// jet by name: its dot import would clash with this package's Projection.
	pg "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/richtext"
	"agora/search"
)

// members rewrites the member documents of the changed profiles and of
// every profile of the changed users.
func (p *Projection) members(ctx context.Context, k *keys) error {
	if len(k.profiles) == 0 && len(k.users) == 0 {
		return nil
	}
	pr, u := table.Profiles.AS("p"), table.Users.AS("u")
	cm, sm := table.CommunityMemberships, table.SeriesMemberships
	// The ids of the profile's communities and forums, among those where
	// holds, when given.
	communities := func(where ...pg.BoolExpression) pg.Expression {
		return array(pg.SELECT(text(cm.CommunityID)).FROM(cm).WHERE(pg.AND(append(where, cm.ProfileID.EQ(pr.ID))...)))
	}
	forums := func(where ...pg.BoolExpression) pg.Expression {
		return array(pg.SELECT(text(sm.SeriesID)).FROM(sm).WHERE(pg.AND(append(where, sm.ProfileID.EQ(pr.ID))...)))
	}
	rows, err := db.Query(ctx, p.db, pg.SELECT(text(pr.ID), pg.COALESCE(text(pr.UserID), pg.String("")),
		pg.COALESCE(u.FirstName, pr.FirstName), pg.COALESCE(u.LastName, pr.LastName), pg.COALESCE(u.Email, pr.Email),
		pg.COALESCE(u.JobTitle, pr.JobTitle), pg.COALESCE(u.Company, pr.Company), text(pr.OrganizationID),
		communities(),
		forums(),
		pg.BinaryOperator(communities(cm.Role.IN(pg.String("admin"), pg.String("cascadingAdmin"))), forums(sm.Role.EQ(pg.String("admin"))), "||"),
		forums(sm.IsExpert)).
		FROM(pr.LEFT_JOIN(u, u.ID.EQ(pr.UserID))).
		WHERE(db.Any(pr.ID, k.profiles.list()).OR(db.Any(pr.UserID, k.users.list()))))
	if err != nil {
		return err
	}
	found, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (search.Member, error) {
		var m search.Member
		var org string
		err := r.Scan(&m.ID, &m.UserID, &m.FirstName, &m.LastName, &m.Email, &m.JobTitle, &m.Company, &org,
			&m.CommunityIDs, &m.ForumIDs, &m.AdminOf, &m.ExpertIn)
		m.OrganizationIDs = []string{org}
		m.FullName = m.FirstName + " " + m.LastName
		m.SortName = sortName(m.FirstName, m.LastName)
		return m, err
	})
	if err != nil {
		return err
	}
	return sync(ctx, p.store.Members(), k.profiles, found)
}

// peers rewrites the peer documents of the changed users, of the users of
// the changed profiles and memberships, and of the experts of renamed
// forums. A user with no active community membership has none.
func (p *Projection) peers(ctx context.Context, k *keys) error {
	if len(k.users) == 0 && len(k.profiles) == 0 && len(k.seriesRenamed) == 0 {
		return nil
	}
	u, pr := table.Users.AS("u"), table.Profiles.AS("p")
	cm, sm, f := table.CommunityMemberships.AS("cm"), table.SeriesMemberships.AS("sm"), table.Series.AS("s")
	rows, err := db.Query(ctx, p.db, pg.SELECT(text(u.ID), u.FirstName, u.LastName, u.Company, u.JobTitle, u.InterestTags,
		array(pg.SELECT(text(cm.CommunityID)).DISTINCT().FROM(pr.INNER_JOIN(cm, cm.ProfileID.EQ(pr.ID))).
			WHERE(pr.UserID.EQ(u.ID).AND(cm.Status.EQ(pg.String("active"))))),
		array(pg.SELECT(f.Name).DISTINCT().FROM(pr.INNER_JOIN(sm, sm.ProfileID.EQ(pr.ID)).INNER_JOIN(f, f.ID.EQ(sm.SeriesID))).
			WHERE(pr.UserID.EQ(u.ID).AND(sm.IsExpert).AND(sm.Status.EQ(pg.String("active")))))).
		FROM(u).
		WHERE(db.Any(u.ID, k.users.list()).
			OR(u.ID.IN(pg.SELECT(table.Profiles.UserID).FROM(table.Profiles).WHERE(db.Any(table.Profiles.ID, k.profiles.list())))).
			OR(u.ID.IN(pg.SELECT(pr.UserID).FROM(sm.INNER_JOIN(pr, pr.ID.EQ(sm.ProfileID))).
				WHERE(db.Any(sm.SeriesID, k.seriesRenamed.list()).AND(sm.IsExpert))))))
	if err != nil {
		return err
	}
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (search.Peer, error) {
		var pe search.Peer
		err := r.Scan(&pe.ID, &pe.FirstName, &pe.LastName, &pe.Company, &pe.JobTitle, &pe.Tags, &pe.CommunityIDs, &pe.Expertise)
		pe.Name = pe.FirstName + " " + pe.LastName
		pe.SortName = sortName(pe.FirstName, pe.LastName)
		return pe, err
	})
	if err != nil {
		return err
	}
	wanted := ids{}
	for id := range k.users {
		wanted[id] = true
	}
	var found []search.Peer
	for _, pe := range all {
		if len(pe.CommunityIDs) > 0 {
			found = append(found, pe)
			continue
		}
		if id, err := uuid.Parse(pe.ID); err == nil {
			wanted[id] = true // no community left: its document goes
		}
	}
	return sync(ctx, p.store.Peers(), wanted, found)
}

// posts rewrites the post documents the batch touches: threads, comments
// and replies, and Meet Up minutes (minutes.go), embedded together (one
// call to the embedder for the batch).
func (p *Projection) posts(ctx context.Context, k *keys) error {
	wanted, found, err := p.threadsAndReplies(ctx, k)
	if err != nil {
		return err
	}
	minutesWanted, minutes, err := p.minutes(ctx, k)
	if err != nil {
		return err
	}
	for id := range minutesWanted {
		wanted[id] = true
	}
	found = append(found, minutes...)
	if err := p.embed(ctx, found); err != nil {
		return err
	}
	return sync(ctx, p.store.Posts(), wanted, found)
}

// embed sets the vector of every post with words, in one call to the
// embedder; without an embedder it does nothing.
//
// A post's vector is of its own text only: a comment or reply is embedded
// without its thread's. It then says what the comment says, and the AI
// search's retrieval already brings a found thread's comments along (and
// a found comment leads to its thread); with the thread's text prepended,
// every comment of a thread would sit near the thread's question and crowd
// out the other threads, and editing a thread would re-embed each of its
// comments.
//
// An embedder's error fails the batch as a store error does: the runner
// retries it, and it is not marked permanent (a model that is down is no
// bad change).
func (p *Projection) embed(ctx context.Context, posts []search.Post) error {
	if p.embedder == nil {
		return nil
	}
	var texts []string
	var at []int
	for i, d := range posts {
		if strings.TrimSpace(d.Text) != "" {
			texts, at = append(texts, d.Text), append(at, i)
		}
	}
	if len(texts) == 0 {
		return nil
	}
	vectors, err := p.embedder.Embed(ctx, texts)
	if err != nil {
		// The embedder is a service like the store: down, overloaded or
		// rate-limited, it is waited for (ErrUnavailable); the posts' text
		// is no poison, and embeds once it is back. The wait shows in the
		// projection's state.
		return fmt.Errorf("embed %d posts: %w: %w", len(texts), search.ErrUnavailable, err)
	}
	if len(vectors) != len(texts) {
		return fmt.Errorf("embed %d posts: the embedder returned %d vectors", len(texts), len(vectors))
	}
	for j, i := range at {
		posts[i].Vector = vectors[j]
	}
	return nil
}

// threadsAndReplies reads the documents of the changed posts, comments and
// replies: the ids wanted, and the documents of those that exist.
func (p *Projection) threadsAndReplies(ctx context.Context, k *keys) (ids, []search.Post, error) {
	wanted := ids{}
	if len(k.threads) == 0 && len(k.replies) == 0 {
		return wanted, nil, nil
	}
	t, r, f := table.Threads.AS("t"), table.Replies.AS("r"), table.Series.AS("s")
	rows, err := db.Query(ctx, p.db, pg.UNION_ALL(
		pg.SELECT(text(t.ID), t.Type, text(t.ID), pg.String(""), text(t.ChannelID), text(t.SeriesID), text(f.CommunityID),
			pg.CASE().WHEN(t.CreatorAs.EQ(pg.String("author"))).THEN(text(t.CreatorID)).ELSE(pg.String("")), t.Raw, t.Hashtags, t.CreatedOn).
			FROM(t.INNER_JOIN(f, f.ID.EQ(t.SeriesID))).
			WHERE(db.Any(t.ID, k.threads.list())),
		pg.SELECT(text(r.ID), pg.CASE().WHEN(r.ParentID.IS_NULL()).THEN(pg.String("comment")).ELSE(pg.String("reply")),
			text(r.ThreadID), pg.COALESCE(text(r.ParentID), pg.String("")),
			text(t.ChannelID), text(t.SeriesID), text(f.CommunityID), text(r.CreatorID), r.Raw, r.Hashtags, r.CreatedOn).
			FROM(r.INNER_JOIN(t, t.ID.EQ(r.ThreadID)).INNER_JOIN(f, f.ID.EQ(t.SeriesID))).
			WHERE(db.Any(r.ID, k.replies.list()))))
	if err != nil {
		return nil, nil, err
	}
	found, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (search.Post, error) {
		var d search.Post
		var created time.Time
		err := r.Scan(&d.ID, &d.Kind, &d.ThreadID, &d.ParentID, &d.ChannelID, &d.ForumID, &d.CommunityID, &d.AuthorID, &d.Text, &d.Hashtags, &created)
		d.Text = richtext.Plain(d.Text)
		d.CreatedAt = created.UnixMilli()
		return d, err
	})
	if err != nil {
		return nil, nil, err
	}
	for id := range k.threads {
		wanted[id] = true
	}
	for id := range k.replies {
		wanted[id] = true
	}
	return wanted, found, nil
}

// hashtags recounts the changed (forum, name) pairs, and every name of the
// forums whose tags are all recounted.
func (p *Projection) hashtags(ctx context.Context, k *keys) error {
	if len(k.replyTags) > 0 {
		// A comment's tags count in its post's forum; a post already gone
		// has its forum recounted whole (keys.add).
		threads := make([]uuid.UUID, 0, len(k.replyTags))
		for t := range k.replyTags {
			threads = append(threads, t)
		}
		t := table.Threads
		rows, err := db.Query(ctx, p.db, pg.SELECT(t.ID, t.SeriesID).FROM(t).WHERE(db.Any(t.ID, threads)))
		if err != nil {
			return err
		}
		var thread, series uuid.UUID
		if _, err := pgx.ForEachRow(rows, []any{&thread, &series}, func() error {
			for _, t := range k.replyTags[thread] {
				k.tags[tagKey{series, t}] = true
			}
			return nil
		}); err != nil {
			return err
		}
	}
	for s := range k.forumTags {
		for key := range k.tags {
			if key.series == s {
				delete(k.tags, key) // counted with the whole forum
			}
		}
	}
	if len(k.tags) == 0 && len(k.forumTags) == 0 {
		return nil
	}
	var seriesOf []uuid.UUID
	var tagOf []string
	for key := range k.tags {
		seriesOf, tagOf = append(seriesOf, key.series), append(tagOf, key.tag)
	}
	// One statement counts both: the named pairs through the lower-cased
	// hashtag indexes, and every name of the whole forums. It is jet's
	// RawStatement, with named arguments: jet has no form for unnest of
	// parallel arrays, set-returning functions in FROM or the array
	// containment lower_tags' indexes answer.
	rows, err := db.Query(ctx, p.db, pg.RawStatement(`
		WITH k AS (SELECT DISTINCT series_id, tag FROM unnest(#series::uuid[], #tags::text[]) AS k (series_id, tag)),
		used AS (
			SELECT t.series_id, h FROM k
				JOIN threads t ON t.series_id = k.series_id AND lower_tags(t.hashtags) @> ARRAY[k.tag]
				JOIN channels c ON c.id = t.channel_id AND c.kind = 'main', unnest(t.hashtags) h
			WHERE lower(h) = k.tag
			UNION ALL
			SELECT t.series_id, h FROM k
				JOIN replies r ON lower_tags(r.hashtags) @> ARRAY[k.tag]
				JOIN threads t ON t.id = r.thread_id AND t.series_id = k.series_id
				JOIN channels c ON c.id = t.channel_id AND c.kind = 'main', unnest(r.hashtags) h
			WHERE lower(h) = k.tag
			UNION ALL
			SELECT t.series_id, h FROM threads t JOIN channels c ON c.id = t.channel_id AND c.kind = 'main', unnest(t.hashtags) h
			WHERE t.series_id = ANY(#forums)
			UNION ALL
			SELECT t.series_id, h FROM replies r JOIN threads t ON t.id = r.thread_id JOIN channels c ON c.id = t.channel_id AND c.kind = 'main',
				unnest(r.hashtags) h
			WHERE t.series_id = ANY(#forums))
		SELECT u.series_id, lower(u.h), min(u.h), count(*)::int, s.community_id::text
		FROM used u JOIN series s ON s.id = u.series_id
		GROUP BY u.series_id, lower(u.h), s.community_id`,
		pg.RawArgs{"#series": seriesOf, "#tags": tagOf, "#forums": k.forumTags.list()}))
	if err != nil {
		return err
	}
	counted := map[string]bool{}
	var found []search.Hashtag
	var series uuid.UUID
	var h search.Hashtag
	var lower string
	if _, err := pgx.ForEachRow(rows, []any{&series, &lower, &h.Name, &h.Count, &h.CommunityID}, func() error {
		h.ForumID = series.String()
		h.ID = search.HashtagID(h.ForumID, lower)
		counted[h.ID] = true
		found = append(found, h)
		return nil
	}); err != nil {
		return err
	}
	x := p.store.Hashtags()
	if err := x.Upsert(ctx, found...); err != nil {
		return err
	}
	var gone []string
	for key := range k.tags {
		if id := search.HashtagID(key.series.String(), key.tag); !counted[id] {
			gone = append(gone, id)
		}
	}
	// A whole forum's recount also drops the names no longer used there.
	for s := range k.forumTags {
		for offset := 0; ; offset += search.MaxLimit {
			res, err := x.Search(ctx, search.Query{Filter: search.Filter{search.In("forumId", s.String())}, Limit: search.MaxLimit, Offset: offset})
			if err != nil {
				return err
			}
			for _, d := range res.Hits {
				if !counted[d.ID] {
					gone = append(gone, d.ID)
				}
			}
			if len(res.Hits) < search.MaxLimit {
				break
			}
		}
	}
	return x.Delete(ctx, gone...)
}

// sortName is the alphabetical key of member lists: "last first".
func sortName(first, last string) string {
	return strings.ToLower(strings.TrimSpace(last + " " + first))
}

// text is e::text, as the documents hold ids.
func text(e pg.Expression) pg.StringExpression { return pg.CAST(e).AS_TEXT() }

// array is ARRAY(sub), the column of sub as an array; jet has no form for
// it.
func array(sub pg.SelectStatement) pg.Expression {
	return pg.CustomExpression(pg.Token("ARRAY("), sub, pg.Token(")"))
}
