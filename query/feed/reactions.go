package feed

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/google/uuid"

	"agora/internal/apperr"
	"agora/internal/auth"
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
	err := q.pool.QueryRow(ctx, `SELECT t.series_id, c.kind FROM threads t JOIN channels c ON c.id = t.channel_id WHERE t.id = $1`, threadID).Scan(&seriesID, &kind)
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
		return uuid.Nil, apperr.ErrForbidden
	}
	if replyID != nil {
		var n int
		if err := q.pool.QueryRow(ctx, `SELECT count(*) FROM replies WHERE id = $1 AND thread_id = $2`, *replyID, threadID).Scan(&n); err != nil {
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
	rows, err := q.pool.Query(ctx, `SELECT r.kind, COALESCE(p.id, u.id), u.id, u.first_name, u.last_name, u.job_title, u.company, u.avatar
		FROM reactions r JOIN users u ON u.id = r.user_id
		LEFT JOIN LATERAL (SELECT p.id FROM profiles p JOIN communities c ON c.organization_id = p.organization_id
		                   WHERE c.id = $3 AND p.user_id = u.id LIMIT 1) p ON true
		WHERE r.thread_id = $1 AND r.reply_id IS NOT DISTINCT FROM $2
		ORDER BY r.created_on, r.id`, threadID, replyID, communityID)
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
	rows, err := q.pool.Query(ctx, `SELECT kind, count(*), bool_or(user_id = $3) FROM reactions
		WHERE thread_id = $1 AND reply_id IS NOT DISTINCT FROM $2 GROUP BY kind`, threadID, replyID, viewer)
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
