package feed

import (
	"context"
	"errors"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// Actor is a person who reacted, with the public fields of their profile.
type Actor struct {
	// ID is the person's profile in the forum's organization (their user
	// id when they have none, as a super user may not).
	ID        uuid.UUID `json:"id"`
	UserID    uuid.UUID `json:"userId"`
	FirstName string    `json:"firstName"`
	LastName  string    `json:"lastName"`
	JobTitle  string    `json:"jobTitle"`
	Company   string    `json:"company"`
	Avatar    *string   `json:"avatar"`
}

// ReactionEntry is one person's reaction.
type ReactionEntry struct {
	Reaction string `json:"reaction"`
	Actor    Actor  `json:"actor"`
}

// ReactionList is GET /thread/{threadId}/reactions.
type ReactionList struct {
	Results []ReactionEntry `json:"results"`
	Total   int             `json:"total"`
}

// Summary is a post's or comment's reactions after a change: the counts and
// the caller's own.
type Summary struct {
	Reactions  Stats   `json:"reactions"`
	MyReaction *string `json:"myReaction"`
}

// target checks the viewer may read the thread (and that replyID, when
// given, is one of its replies) and returns the forum's community.
func (q *Queries) target(ctx context.Context, v auth.Caller, threadID uuid.UUID, replyID *uuid.UUID) (uuid.UUID, error) {
	var seriesID uuid.UUID
	var kind string
	t, c := table.Threads.AS("t"), table.Channels.AS("c")
	err := db.QueryRow(ctx, q.pool, SELECT(t.SeriesID, c.Kind).FROM(t.INNER_JOIN(c, c.ID.EQ(t.ChannelID))).
		WHERE(t.ID.EQ(UUID(threadID)))).Scan(&seriesID, &kind)
	if errors.Is(err, pgx.ErrNoRows) {
		return uuid.Nil, apperr.ErrNotFound
	}
	if err != nil {
		return uuid.Nil, fmt.Errorf("feed: thread: %w", err)
	}
	f, err := readForum(ctx, q.pool, v, seriesID)
	if err != nil {
		return uuid.Nil, err
	}
	if kind == "admin" && !f.Admin {
		return uuid.Nil, access.ErrForumNotFound // as unknown as a missing thread
	}
	if replyID != nil {
		var n int
		r := table.Replies
		if err := db.QueryRow(ctx, q.pool, SELECT(COUNT(STAR)).FROM(r).
			WHERE(r.ID.EQ(UUID(*replyID)).AND(r.ThreadID.EQ(UUID(threadID))))).Scan(&n); err != nil {
			return uuid.Nil, err
		}
		if n == 0 {
			return uuid.Nil, apperr.ErrNotFound
		}
	}
	return f.CommunityID, nil
}

// Reactions lists who reacted to a thread (replyID nil) or one of its
// replies, oldest first.
func (q *Queries) Reactions(ctx context.Context, v auth.Caller, threadID uuid.UUID, replyID *uuid.UUID) (ReactionList, error) {
	list := ReactionList{Results: []ReactionEntry{}}
	communityID, err := q.target(ctx, v, threadID, replyID)
	if err != nil {
		return list, err
	}
	r, u := table.Reactions.AS("r"), table.Users.AS("u")
	p, c := table.Profiles.AS("p"), table.Communities.AS("c")
	// The actor's profile in the forum's organization, if any.
	profile := LATERAL(SELECT(p.ID).FROM(p.INNER_JOIN(c, c.OrganizationID.EQ(p.OrganizationID))).
		WHERE(c.ID.EQ(UUID(communityID)).AND(p.UserID.EQ(u.ID))).LIMIT(1)).AS("pl")
	rows, err := db.Query(ctx, q.pool, SELECT(r.Kind, COALESCE(p.ID.From(profile), u.ID), u.ID, u.FirstName, u.LastName, u.JobTitle, u.Company, u.Avatar).
		FROM(r.INNER_JOIN(u, u.ID.EQ(r.UserID)).LEFT_JOIN(profile, Bool(true))).
		WHERE(r.ThreadID.EQ(UUID(threadID)).AND(r.ReplyID.IS_NOT_DISTINCT_FROM(replyOf(replyID)))).
		ORDER_BY(r.CreatedOn, r.ID))
	if err != nil {
		return list, fmt.Errorf("feed: reactions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e ReactionEntry
		a := &e.Actor
		if err := rows.Scan(&e.Reaction, &a.ID, &a.UserID, &a.FirstName, &a.LastName, &a.JobTitle, &a.Company, &a.Avatar); err != nil {
			return list, fmt.Errorf("feed: scan reaction: %w", err)
		}
		list.Results = append(list.Results, e)
	}
	list.Total = len(list.Results)
	return list, rows.Err()
}

// Summary reads the counts and the viewer's reaction on a thread or reply.
func (q *Queries) Summary(ctx context.Context, v auth.Caller, threadID uuid.UUID, replyID *uuid.UUID) (Summary, error) {
	if _, err := q.target(ctx, v, threadID, replyID); err != nil {
		return Summary{}, err
	}
	return q.summary(ctx, threadID, replyID, v.UserID)
}

// summary counts the reactions on a thread (replyID nil) or one of its
// replies, and finds viewer's among them (none for uuid.Nil).
func (q *Queries) summary(ctx context.Context, threadID uuid.UUID, replyID *uuid.UUID, viewer uuid.UUID) (Summary, error) {
	var s Summary
	r := table.Reactions
	rows, err := db.Query(ctx, q.pool, SELECT(r.Kind, COUNT(STAR), BOOL_OR(r.UserID.EQ(UUID(viewer)))).FROM(r).
		WHERE(r.ThreadID.EQ(UUID(threadID)).AND(r.ReplyID.IS_NOT_DISTINCT_FROM(replyOf(replyID)))).
		GROUP_BY(r.Kind))
	if err != nil {
		return s, fmt.Errorf("feed: reaction summary: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var kind string
		var n int
		var mine bool
		if err := rows.Scan(&kind, &n, &mine); err != nil {
			return s, fmt.Errorf("feed: reaction summary: %w", err)
		}
		s.Reactions.Add(kind, n)
		if mine {
			k := kind
			s.MyReaction = &k
		}
	}
	return s, rows.Err()
}

// replyOf is a reaction's reply_id: null for a thread's own reactions.
func replyOf(replyID *uuid.UUID) StringExpression {
	if replyID == nil {
		return StringExp(NULL)
	}
	return UUID(*replyID)
}
