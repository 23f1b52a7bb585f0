package searchindex

import (
	"context"
	"time"

	pg "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/search"
)

// minutesSpace derives the id of a Meet Up's minutes document from its
// post's id.
var minutesSpace = uuid.MustParse("6f1f6d1e-4a53-4bb4-9a4e-6d696e757465")

// MinutesDocID is the id of the minutes document of a Meet Up post.
func MinutesDocID(threadID uuid.UUID) uuid.UUID { return uuid.NewSHA1(minutesSpace, threadID[:]) }

// minutes reads the minutes documents of the changed Meet Ups: the ids
// wanted, and the documents of those with minutes. The
// minutes are a document of their own, beside the Meet Up post's: the post
// is for every reader of its channel, the minutes only for the Meet Up's
// creator and invitees (spec 002 §4: only an invited user sees the AI
// notes). So the document has no channel and names those people as its
// readers: search.ReadableBy then finds it for them alone, in every post
// search (the AI search's retrieval) without a change to the searches. Its
// threadId is the Meet Up post, where a hit leads.
func (p *Projection) minutes(ctx context.Context, k *keys) (ids, []search.Post, error) {
	threads := ids{}
	for id := range k.threads {
		threads[id] = true
	}
	for id := range k.minutesThreads {
		threads[id] = true
	}
	m, mi, s := table.Meetings, table.MeetingInvitees, table.Series
	if len(k.meetings) > 0 {
		more, err := db.Values[uuid.UUID](ctx, p.db, pg.SELECT(m.ThreadID).FROM(m).WHERE(db.Any(m.ID, k.meetings.list())))
		if err != nil {
			return nil, nil, err
		}
		for _, id := range more {
			threads[id] = true
		}
	}
	wanted := ids{}
	if len(threads) == 0 {
		return wanted, nil, nil
	}
	rows, err := db.Query(ctx, p.db, pg.SELECT(m.ThreadID, m.SeriesID, s.CommunityID, m.CreatorID, m.MinutesContent, m.MinutesOn,
		array(pg.SELECT(text(mi.UserID)).FROM(mi).WHERE(mi.MeetingID.EQ(m.ID)).ORDER_BY(mi.UserID))).
		FROM(m.INNER_JOIN(s, s.ID.EQ(m.SeriesID))).
		WHERE(db.Any(m.ThreadID, threads.list()).AND(m.MinutesContent.IS_NOT_NULL())))
	if err != nil {
		return nil, nil, err
	}
	found, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (search.Post, error) {
		var thread, series, community, creator uuid.UUID
		var content string
		var on *time.Time
		var invitees []string
		if err := r.Scan(&thread, &series, &community, &creator, &content, &on, &invitees); err != nil {
			return search.Post{}, err
		}
		d := search.Post{
			ID: MinutesDocID(thread).String(), Kind: search.KindMinutes, ThreadID: thread.String(),
			ForumID: series.String(), CommunityID: community.String(), AuthorID: creator.String(),
			Text: content, Hashtags: []string{}, ReaderIDs: append([]string{creator.String()}, invitees...),
		}
		if on != nil {
			d.CreatedAt = on.UnixMilli()
		}
		return d, nil
	})
	if err != nil {
		return nil, nil, err
	}
	for id := range threads {
		wanted[MinutesDocID(id)] = true
	}
	return wanted, found, nil
}
