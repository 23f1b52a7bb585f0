// Package feed is the read side of the forum feed (spec 001): a channel's
// posts newest first, one post with its comments, reactions and their
// actors, hashtags in use and forum visits. Anonymous questions never show
// their creator.
package feed

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"agora/internal/access"
	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db/dbtype"
	"agora/internal/jsontime"
)

// Queries reads the feed from Postgres.
type Queries struct {
	db *sql.DB
}

// New builds the queries.
func New(db *sql.DB) (*Queries, error) {
	if db == nil {
		return nil, errors.New("feed.New: nil dependency")
	}
	return &Queries{db: db}, nil
}

// Viewer is the signed-in caller.
type Viewer struct {
	UserID uuid.UUID
	Role   auth.Role
}

// Creator is the author of a post or comment.
type Creator struct {
	UserID    uuid.UUID `json:"userId"`
	FirstName string    `json:"firstName"`
	LastName  string    `json:"lastName"`
	Avatar    *string   `json:"avatar"`
	IsExpert  bool      `json:"isExpert"`
}

// Stats are the reactions on a post or comment: a count per kind and the total.
type Stats struct {
	Liked      int `json:"liked"`
	Loved      int `json:"loved"`
	Smiled     int `json:"smiled"`
	Disliked   int `json:"disliked"`
	Neutral    int `json:"neutral"`
	TotalCount int `json:"totalCount"`
}

func (s *Stats) add(kind string, n int) {
	switch kind {
	case "liked":
		s.Liked += n
	case "loved":
		s.Loved += n
	case "smiled":
		s.Smiled += n
	case "disliked":
		s.Disliked += n
	case "neutral":
		s.Neutral += n
	}
	s.TotalCount += n
}

// Thread is a post as the feed shows it.
type Thread struct {
	ID        uuid.UUID `json:"id"`
	ChannelID uuid.UUID `json:"channelId"`
	SeriesID  uuid.UUID `json:"seriesId"`
	Type      string    `json:"type"`
	CreatorAs string    `json:"creatorAs"`
	// CreatorID and Creator are null for an anonymous question.
	CreatorID *uuid.UUID      `json:"creatorId"`
	Creator   *Creator        `json:"creator"`
	Raw       string          `json:"raw"`
	Image     json.RawMessage `json:"image"`
	File      json.RawMessage `json:"file"`
	Link      json.RawMessage `json:"link"`
	Meeting   json.RawMessage `json:"meeting"`
	Mentions  []string        `json:"mentions"`
	Hashtags  []string        `json:"hashtags"`
	Reactions Stats           `json:"reactions"`
	// MyReaction is the caller's reaction, or null.
	MyReaction *string `json:"myReaction"`
	// CanManage tells whether the caller may edit and delete (creator or forum admin).
	CanManage bool `json:"canManage"`
	// RepliesCount counts comments and their replies.
	RepliesCount int `json:"repliesCount"`
	// Replies are the comments, oldest first, each with its replies: all of
	// them for one post, only the first (featured) comment in the feed.
	Replies   []*Reply      `json:"replies"`
	CreatedOn jsontime.Time `json:"createdOn"`
	UpdatedOn jsontime.Time `json:"updatedOn"`

	creatorID uuid.UUID
}

// Reply is a comment, or a reply to a comment (ParentID set).
type Reply struct {
	ID           uuid.UUID     `json:"id"`
	ThreadID     uuid.UUID     `json:"threadId"`
	ParentID     *uuid.UUID    `json:"parentId"`
	CreatorID    uuid.UUID     `json:"creatorId"`
	Creator      Creator       `json:"creator"`
	Raw          string        `json:"raw"`
	Mentions     []string      `json:"mentions"`
	Hashtags     []string      `json:"hashtags"`
	Reactions    Stats         `json:"reactions"`
	MyReaction   *string       `json:"myReaction"`
	CanManage    bool          `json:"canManage"`
	RepliesCount int           `json:"repliesCount"`
	Replies      []*Reply      `json:"replies"`
	CreatedOn    jsontime.Time `json:"createdOn"`
	UpdatedOn    jsontime.Time `json:"updatedOn"`
}

// readForum resolves the viewer's rights and refuses a non-reader.
func readForum(ctx context.Context, db *sql.DB, v Viewer, seriesID uuid.UUID) (access.Forum, error) {
	f, err := access.InForum(ctx, db, v.UserID, v.Role, seriesID)
	if err != nil {
		return f, err
	}
	if !f.Read() {
		return f, apperr.ErrForbidden
	}
	return f, nil
}

func raw(b []byte) json.RawMessage {
	if b == nil {
		return json.RawMessage("null")
	}
	return json.RawMessage(b)
}

func ids(list []uuid.UUID) dbtype.TextArray {
	a := make(dbtype.TextArray, len(list))
	for i, id := range list {
		a[i] = id.String()
	}
	return a
}

func orEmpty(a dbtype.TextArray) []string {
	if a == nil {
		return []string{}
	}
	return a
}

// creatorCols reads a creator, with the forum's expert flag of the user's membership.
const creatorCols = `u.id, u.first_name, u.last_name, u.avatar,
	EXISTS (SELECT 1 FROM series_memberships sm JOIN profiles p ON p.id = sm.profile_id
	        WHERE p.user_id = u.id AND sm.series_id = t.series_id AND sm.is_expert AND sm.status = 'active')`

const threadCols = `t.id, t.channel_id, t.series_id, t.type, t.creator_as, t.creator_id, t.raw, t.image, t.file, t.link, t.meeting,
	t.mentions::text[], t.hashtags, t.created_on, t.updated_on, ` + creatorCols

func scanThread(rows interface{ Scan(...any) error }) (*Thread, error) {
	var t Thread
	var c Creator
	var image, file, link, meeting []byte
	var mentions, hashtags dbtype.TextArray
	var created, updated sql.NullTime
	if err := rows.Scan(&t.ID, &t.ChannelID, &t.SeriesID, &t.Type, &t.CreatorAs, &t.creatorID, &t.Raw, &image, &file, &link, &meeting,
		&mentions, &hashtags, &created, &updated, &c.UserID, &c.FirstName, &c.LastName, &c.Avatar, &c.IsExpert); err != nil {
		return nil, fmt.Errorf("feed: scan thread: %w", err)
	}
	t.Image, t.File, t.Link, t.Meeting = raw(image), raw(file), raw(link), raw(meeting)
	t.Mentions, t.Hashtags = orEmpty(mentions), orEmpty(hashtags)
	t.CreatedOn, t.UpdatedOn = jsontime.Of(created.Time), jsontime.Of(updated.Time)
	// An anonymous question hides its creator from everyone, forum admins
	// included, until a recorded moderation look exists.
	if t.CreatorAs != "anonymous" {
		id := t.creatorID
		t.CreatorID, t.Creator = &id, &c
	}
	t.Replies = []*Reply{}
	return &t, nil
}

// fill adds replies, counts and reactions to threads of one forum. With
// all false, only the first comment of each thread (and its replies) is read.
func (q *Queries) fill(ctx context.Context, v Viewer, f access.Forum, threads []*Thread, all bool) error {
	if len(threads) == 0 {
		return nil
	}
	byID := map[uuid.UUID]*Thread{}
	var tids []uuid.UUID
	for _, t := range threads {
		byID[t.ID] = t
		tids = append(tids, t.ID)
		t.CanManage = t.creatorID == v.UserID || f.Admin
	}
	rows, err := q.db.QueryContext(ctx, `SELECT thread_id, count(*) FROM replies WHERE thread_id = ANY($1::text[]::uuid[]) GROUP BY thread_id`, ids(tids))
	if err != nil {
		return fmt.Errorf("feed: reply counts: %w", err)
	}
	for rows.Next() {
		var id uuid.UUID
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			rows.Close()
			return err
		}
		byID[id].RepliesCount = n
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}

	where := `r.thread_id = ANY($1::text[]::uuid[])`
	if !all {
		where = `COALESCE(r.parent_id, r.id) IN (SELECT DISTINCT ON (thread_id) id FROM replies
			WHERE thread_id = ANY($1::text[]::uuid[]) AND parent_id IS NULL ORDER BY thread_id, created_on, id)`
	}
	rows, err = q.db.QueryContext(ctx, `SELECT r.id, r.thread_id, r.parent_id, r.raw, r.mentions::text[], r.hashtags, r.created_on, r.updated_on, `+
		creatorCols+` FROM replies r JOIN threads t ON t.id = r.thread_id JOIN users u ON u.id = r.creator_id
		WHERE `+where+` ORDER BY r.created_on, r.id`, ids(tids))
	if err != nil {
		return fmt.Errorf("feed: replies: %w", err)
	}
	replies := map[uuid.UUID]*Reply{}
	var rids []uuid.UUID
	var order []*Reply
	for rows.Next() {
		var r Reply
		var mentions, hashtags dbtype.TextArray
		var created, updated sql.NullTime
		if err := rows.Scan(&r.ID, &r.ThreadID, &r.ParentID, &r.Raw, &mentions, &hashtags, &created, &updated,
			&r.Creator.UserID, &r.Creator.FirstName, &r.Creator.LastName, &r.Creator.Avatar, &r.Creator.IsExpert); err != nil {
			rows.Close()
			return fmt.Errorf("feed: scan reply: %w", err)
		}
		r.CreatorID = r.Creator.UserID
		r.Mentions, r.Hashtags = orEmpty(mentions), orEmpty(hashtags)
		r.CreatedOn, r.UpdatedOn = jsontime.Of(created.Time), jsontime.Of(updated.Time)
		r.Replies = []*Reply{}
		r.CanManage = r.CreatorID == v.UserID || f.Admin
		replies[r.ID] = &r
		rids = append(rids, r.ID)
		order = append(order, &r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, r := range order {
		if r.ParentID == nil {
			byID[r.ThreadID].Replies = append(byID[r.ThreadID].Replies, r)
		} else if p := replies[*r.ParentID]; p != nil {
			p.Replies = append(p.Replies, r)
			p.RepliesCount++
		}
	}

	rows, err = q.db.QueryContext(ctx, `SELECT thread_id, reply_id, kind, count(*), bool_or(user_id = $3) FROM reactions
		WHERE thread_id = ANY($1::text[]::uuid[]) AND (reply_id IS NULL OR reply_id = ANY($2::text[]::uuid[]))
		GROUP BY thread_id, reply_id, kind`, ids(tids), ids(rids), v.UserID)
	if err != nil {
		return fmt.Errorf("feed: reactions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var tid uuid.UUID
		var rid *uuid.UUID
		var kind string
		var n int
		var mine bool
		if err := rows.Scan(&tid, &rid, &kind, &n, &mine); err != nil {
			return fmt.Errorf("feed: scan reaction: %w", err)
		}
		k := kind
		if rid == nil {
			byID[tid].Reactions.add(kind, n)
			if mine {
				byID[tid].MyReaction = &k
			}
		} else if r := replies[*rid]; r != nil {
			r.Reactions.add(kind, n)
			if mine {
				r.MyReaction = &k
			}
		}
	}
	return rows.Err()
}
