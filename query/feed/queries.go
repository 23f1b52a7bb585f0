// Package feed is the read side of the forum feed (spec 001): a channel's
// posts newest first, one post with its comments, reactions and their
// actors, hashtags in use and forum visits. Anonymous questions never show
// their creator.
package feed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/adapters/blob"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/jsontime"
	"agora/internal/rules/access"
	"agora/internal/rules/message"
	"agora/query/meetup"
)

// Queries reads the feed from Postgres.
type Queries struct {
	pool  *pgxpool.Pool
	links *blob.Links
	// threadPlans are the scan plans of threadsSQL's rows, the feed's
	// hottest (threadRows).
	threadPlans db.ScanPlans
}

// New builds the queries; links sign the URLs of the posts' uploads.
func New(d *db.DB, links *blob.Links) (*Queries, error) {
	if d == nil || d.Pool == nil || links == nil {
		return nil, errors.New("feed.New: nil dependency")
	}
	return &Queries{pool: d.Pool, links: links}, nil
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

// Add counts n reactions of kind.
func (s *Stats) Add(kind string, n int) {
	switch kind {
	case message.Liked:
		s.Liked += n
	case message.Loved:
		s.Loved += n
	case message.Smiled:
		s.Smiled += n
	case message.Disliked:
		s.Disliked += n
	case message.Neutral:
		s.Neutral += n
	}
	s.TotalCount += n
}

// Post is a post as every reader of it sees it: the feed's Thread without
// the caller's own fields, and the payload of the live thread.created and
// thread.updated events (projections/realtime).
type Post struct {
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
	// Chat is the conversation of a shared AI chat post, null otherwise.
	Chat      json.RawMessage `json:"chat"`
	Mentions  []string        `json:"mentions"`
	Hashtags  []string        `json:"hashtags"`
	Reactions Stats           `json:"reactions"`
	CreatedOn jsontime.Time   `json:"createdOn"`
	UpdatedOn jsontime.Time   `json:"updatedOn"`
}

// SignedBy names the post's creator, unless it is an anonymous question:
// that hides its creator from every reader, forum admins included (spec
// 001 §6); they see the asker only through a recorded moderation look.
// creator may be nil when it is read later.
func (p *Post) SignedBy(id uuid.UUID, creator *Creator) {
	if p.CreatorAs == "anonymous" {
		p.CreatorID, p.Creator = nil, nil
		return
	}
	p.CreatorID, p.Creator = &id, creator
}

// Thread is a post as the feed shows it to the caller.
type Thread struct {
	Post
	// MyReaction is the caller's reaction, or null.
	MyReaction *string `json:"myReaction"`
	// CanManage tells whether the caller may edit and delete (creator or forum admin).
	CanManage bool `json:"canManage"`
	// IsMine tells whether the caller created the post. It is the one sign
	// of an anonymous question's asker, and only the asker receives it, so
	// that their own question is theirs (never new to them, for instance).
	IsMine bool `json:"isMine"`
	// RepliesCount counts comments and their replies; CommentsCount the
	// comments alone, so that a comment and its reply read "1 comment, 1
	// reply" rather than "2 comments".
	RepliesCount  int `json:"repliesCount"`
	CommentsCount int `json:"commentsCount"`
	// Replies are the comments, oldest first, each with its replies: all of
	// them for one post, only the first (featured) comment in the feed.
	Replies []*Reply `json:"replies"`

	creatorID uuid.UUID
	// hasMeeting: the post is a Meet Up's (threadsSQL's has_meeting).
	hasMeeting bool
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

// readForum resolves the viewer's rights; a forum they may not read is as
// unknown as a missing one (access.ReadForum).
func readForum(ctx context.Context, q db.Querier, v auth.Caller, seriesID uuid.UUID) (access.Forum, error) {
	return access.ReadForum(ctx, q, v.UserID, v.Role, seriesID)
}

// null is the JSON of a missing attachment, link, meeting or chat: one
// value for all, as a conversion per field allocated five times a post.
var null = json.RawMessage("null")

func raw(b []byte) json.RawMessage {
	if b == nil {
		return null
	}
	return json.RawMessage(b)
}

func orEmpty(a []string) []string {
	if a == nil {
		return []string{}
	}
	return a
}

// A page of threads is read in one statement (threadsSQL): the viewer's
// rights in the forum, the threads, the comments shown with them, their
// creators, reply counts and reactions. The first row holds the rights
// alone (the acc columns, sec null); then, unless the forum is refused or
// the page empty, a row an item, with null rights: a thread (sec 0, in
// page order) or a comment or reply (sec 1, oldest first). Rights repeated
// on every item's row cost the feed page a twentieth of Postgres's work
// (pgbench, 2026-12-04). A channel or thread that does not exist gives no
// row.
//
// The rights repeat access.InForum through access.ForumSQL, so that the
// rows are read only for a reader; Go then tells 403 from an empty page.
// Placeholders: $1 the channel (or thread) id, $2 the viewer, $3 whether
// the viewer is a super user, then those of the page.
func threadsSQL(forum, page string, all bool) string {
	member, admin := access.ForumSQL("$2", "$3")
	// Each shown reply carries its thread's forum (page_series_id), which
	// its creator's expert flag is read in, so that items need not join
	// the replies to the page again.
	shown := `SELECT r.*, t.series_id AS page_series_id FROM page t JOIN replies r ON r.thread_id = t.id`
	if !all {
		// The first comment of each thread, through replies_thread, then
		// it and its replies through replies_featured: joined to each
		// thread, as a semi-join on the first comments' ids read each
		// thread's replies twice over (a third more of the page's buffers).
		shown = `SELECT r.*, t.series_id AS page_series_id FROM page t
			CROSS JOIN LATERAL (SELECT f.id FROM replies f WHERE f.thread_id = t.id AND f.parent_id IS NULL
			                    ORDER BY f.created_on, f.id LIMIT 1) f
			JOIN replies r ON COALESCE(r.parent_id, r.id) = f.id AND r.thread_id = t.id`
	}
	return `WITH acc AS (
		SELECT c.series_id, c.kind, m.member, m.admin,
			(m.member OR m.admin) AND (c.kind <> 'admin' OR m.admin) AS reads
		FROM channels c JOIN series s ON s.id = c.series_id,
			-- OFFSET 0 keeps the planner from copying the two
			-- conditions into every expression that reads them.
			LATERAL (SELECT ` + member + ` AS member, ` + admin + ` AS admin OFFSET 0) m
		WHERE c.id = (` + forum + `)
	),
	page AS (` + page + `),
	shown AS (` + shown + `),
	items AS (
		SELECT 0 AS sec, t.id, t.id AS thread_id, NULL::uuid AS parent_id, t.channel_id, t.series_id, t.type, t.creator_as, t.creator_id,
			t.raw, t.image, t.file, t.link, t.meeting, t.chat, t.mentions::text[] AS mentions, t.hashtags, t.created_on, t.updated_on,
			n.replies_count, n.comments_count,
			-- Whether the post is a Meet Up's, so that only a page with one
			-- reads the Meet Ups (withMeetings).
			EXISTS (SELECT 1 FROM meetings mt WHERE mt.thread_id = t.id) AS has_meeting,
			'00000000-0000-0000-0000-000000000000'::uuid AS reaction_key
		FROM page t
		-- Both counts from one scan of the thread's replies.
		CROSS JOIN LATERAL (SELECT count(*)::int AS replies_count, count(*) FILTER (WHERE c.parent_id IS NULL)::int AS comments_count
			FROM replies c WHERE c.thread_id = t.id) n
		UNION ALL
		SELECT 1, r.id, r.thread_id, r.parent_id, NULL, r.page_series_id, NULL, NULL, r.creator_id,
			r.raw, NULL, NULL, NULL, NULL, NULL, r.mentions::text[], r.hashtags, r.created_on, r.updated_on, 0, 0, false, r.id
		FROM shown r
	)
	SELECT r.* FROM (
		-- The items first, whose columns name those of the rows.
		SELECT NULL, NULL, NULL, NULL, i.sec,
			i.id, i.thread_id, i.parent_id, i.channel_id, i.series_id, i.type, i.creator_as, i.creator_id, i.raw, i.image, i.file, i.link, i.meeting, i.chat,
			i.mentions, i.hashtags, i.created_on, i.updated_on, i.replies_count, i.comments_count, i.has_meeting,
			u.first_name, u.last_name, u.avatar,
			` + isExpertSQL("u.id", "i.series_id") + `,
			x.liked, x.loved, x.smiled, x.disliked, x.neutral, x.mine
		FROM items i
		JOIN users u ON u.id = i.creator_id
		CROSS JOIN LATERAL (
			-- The expression of the reactions_one index: a thread's own
			-- reactions have the nil UUID for their reply.
			SELECT count(*) FILTER (WHERE kind = 'liked')::int AS liked, count(*) FILTER (WHERE kind = 'loved')::int AS loved,
				count(*) FILTER (WHERE kind = 'smiled')::int AS smiled, count(*) FILTER (WHERE kind = 'disliked')::int AS disliked,
				count(*) FILTER (WHERE kind = 'neutral')::int AS neutral, max(kind) FILTER (WHERE user_id = $2) AS mine
			FROM reactions
			WHERE thread_id = i.thread_id AND COALESCE(reply_id, '00000000-0000-0000-0000-000000000000'::uuid) = i.reaction_key
		) x
		UNION ALL
		SELECT acc.series_id, acc.kind, acc.member, acc.admin` + strings.Repeat(", NULL", itemColumns) + ` FROM acc
	) r
	ORDER BY r.sec NULLS FIRST,
		CASE WHEN r.sec = 0 THEN r.created_on END DESC, CASE WHEN r.sec = 0 THEN r.id END DESC,
		r.created_on, r.id`
}

// itemColumns counts the columns of an item's row after the rights: those
// the rights row leaves null.
const itemColumns = 32

// threadRows reads a statement of threadsSQL: the viewer's rights and the
// threads in order with their comments. No row at all, a forum the viewer
// may not read, or an admin channel they do not administer, is
// access.ErrForumNotFound: the same answer, so that ids cannot be probed.
func (q *Queries) threadRows(ctx context.Context, v auth.Caller, sql string, args ...any) ([]*Thread, error) {
	rows, err := q.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("feed: threads: %w", err)
	}
	defer rows.Close()
	var (
		found   bool
		f       access.Forum
		kind    string
		threads = []*Thread{}
		byID    = map[uuid.UUID]*Thread{}
		replies = map[uuid.UUID]*Reply{}
	)
	// One row value serves every row: thread and reply copy out what they
	// keep, and pgx scans fresh strings and slices each time.
	var r threadRow
	scanner := q.threadPlans.Rows(rows)
	for rows.Next() {
		if err := r.scan(scanner); err != nil {
			return nil, err
		}
		found, kind, f.SeriesID, f.Member, f.Admin = true, r.kind, r.seriesID, r.member, r.admin
		switch {
		case !r.sec.Valid: // the rights row, first: the items follow it, if any
		case r.sec.Int32 == 0:
			t := r.thread()
			if err := q.SignAttachments(&t.Post); err != nil {
				return nil, err
			}
			t.IsMine = t.creatorID == v.UserID
			t.CanManage = t.IsMine || f.Admin
			threads = append(threads, t)
			byID[t.ID] = t
		default:
			c := r.reply()
			c.CanManage = c.CreatorID == v.UserID || f.Admin
			replies[c.ID] = c
			if c.ParentID == nil {
				if t := byID[c.ThreadID]; t != nil {
					t.Replies = append(t.Replies, c)
				}
			} else if p := replies[*c.ParentID]; p != nil {
				p.Replies = append(p.Replies, c)
				p.RepliesCount++
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("feed: threads: %w", err)
	}
	if !found || !f.Read() || (kind == "admin" && !f.Admin) {
		return nil, access.ErrForumNotFound
	}
	if err := q.withMeetings(ctx, v, threads); err != nil {
		return nil, err
	}
	return threads, nil
}

// withMeetings sets the meeting of the page's Meet Up posts, composed from
// the Meet Up tables in one read for the whole page (meetup.Load), made
// only when the page has one: a read more per page cost the feed a third
// of its throughput (make bench BENCHFLAGS='-only feed'). A Meet Up's post
// is its creator's alone to manage (spec 002 §6).
func (q *Queries) withMeetings(ctx context.Context, v auth.Caller, threads []*Thread) error {
	ids := make([]uuid.UUID, 0, len(threads))
	for _, t := range threads {
		if t.hasMeeting {
			ids = append(ids, t.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	meetings, err := meetup.Load(ctx, q.pool, v.UserID, ids)
	if err != nil {
		return err
	}
	for _, t := range threads {
		if m, ok := meetings[t.ID]; ok {
			if t.Meeting, err = json.Marshal(m); err != nil {
				return fmt.Errorf("feed: meeting: %w", err)
			}
			t.CanManage = t.IsMine
		}
	}
	return nil
}

// threadRow is one row of threadsSQL.
type threadRow struct {
	seriesID      uuid.UUID
	kind          string
	member, admin bool
	sec           pgtype.Int4

	id, threadID       uuid.UUID
	parentID           pgtype.UUID
	channelID          pgtype.UUID
	itemSeriesID       uuid.UUID
	typ, creatorAs     pgtype.Text
	creatorID          uuid.UUID
	raw                string
	image, file, link  []byte
	meeting, chat      []byte
	mentions, hashtags []string
	created, updated   time.Time
	repliesCount       int
	commentsCount      int
	hasMeeting         bool
	creator            Creator
	stats              Stats
	mine               pgtype.Text

	// rights are the scan targets of the rights row, item those of an
	// item's row: each nil (which pgx skips) where the other has its
	// columns.
	rights, item []any
}

// scan reads the current row: the rights row (sec null) or an item's,
// whose fields it sets and leaves the others as they were. UUIDs are
// scanned as [16]byte: as a uuid.UUID, pgx would hand them to its
// sql.Scanner as text to parse.
func (r *threadRow) scan(rows db.Scanner) error {
	if r.item == nil {
		c := &r.creator
		r.item = []any{nil, nil, nil, nil, &r.sec,
			(*[16]byte)(&r.id), (*[16]byte)(&r.threadID), &r.parentID, &r.channelID, (*[16]byte)(&r.itemSeriesID),
			&r.typ, &r.creatorAs, (*[16]byte)(&r.creatorID), &r.raw, &r.image, &r.file, &r.link, &r.meeting, &r.chat,
			&r.mentions, &r.hashtags, &r.created, &r.updated, &r.repliesCount, &r.commentsCount, &r.hasMeeting,
			&c.FirstName, &c.LastName, &c.Avatar, &c.IsExpert,
			&r.stats.Liked, &r.stats.Loved, &r.stats.Smiled, &r.stats.Disliked, &r.stats.Neutral, &r.mine}
		r.rights = make([]any, len(r.item))
		copy(r.rights, []any{(*[16]byte)(&r.seriesID), &r.kind, &r.member, &r.admin, &r.sec})
	}
	dest := r.item
	if rows.Null(4) {
		dest = r.rights
	}
	if err := rows.Scan(dest...); err != nil {
		return fmt.Errorf("feed: scan thread row: %w", err)
	}
	r.creator.UserID = r.creatorID
	s := &r.stats
	s.TotalCount = s.Liked + s.Loved + s.Smiled + s.Disliked + s.Neutral
	return nil
}

func (r *threadRow) myReaction() *string {
	if !r.mine.Valid {
		return nil
	}
	k := r.mine.String
	return &k
}

func (r *threadRow) thread() *Thread {
	t := &Thread{
		Post: Post{
			ID: r.id, ChannelID: uuid.UUID(r.channelID.Bytes), SeriesID: r.itemSeriesID,
			Type: r.typ.String, CreatorAs: r.creatorAs.String, Raw: r.raw,
			Image: raw(r.image), File: raw(r.file), Link: raw(r.link), Meeting: raw(r.meeting), Chat: raw(r.chat),
			Mentions: orEmpty(r.mentions), Hashtags: orEmpty(r.hashtags), Reactions: r.stats,
			CreatedOn: jsontime.Of(r.created), UpdatedOn: jsontime.Of(r.updated),
		},
		MyReaction: r.myReaction(), RepliesCount: r.repliesCount, CommentsCount: r.commentsCount, Replies: []*Reply{},
		creatorID: r.creatorID, hasMeeting: r.hasMeeting,
	}
	c := r.creator
	t.SignedBy(r.creatorID, &c)
	return t
}

func (r *threadRow) reply() *Reply {
	c := &Reply{
		ID: r.id, ThreadID: r.threadID, CreatorID: r.creatorID, Creator: r.creator, Raw: r.raw,
		Mentions: orEmpty(r.mentions), Hashtags: orEmpty(r.hashtags),
		Reactions: r.stats, MyReaction: r.myReaction(), Replies: []*Reply{},
		CreatedOn: jsontime.Of(r.created), UpdatedOn: jsontime.Of(r.updated),
	}
	if r.parentID.Valid {
		p := uuid.UUID(r.parentID.Bytes)
		c.ParentID = &p
	}
	return c
}
