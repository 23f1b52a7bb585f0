package feed

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/rules/richtext"
)

// Feed page sizes (spec 001 §9: the client reads 10 at a time).
const (
	DefaultPageSize = 10
	MaxPageSize     = 50
)

// ChannelThreads is GET /channels/{id}/threads.
type ChannelThreads struct {
	ChannelID uuid.UUID
	Viewer    auth.Caller
	// CreatedBefore is the cursor: the smallest createdOn of the previous page.
	CreatedBefore *time.Time
	// PageSize is 1 to MaxPageSize (the client asks DefaultPageSize).
	PageSize int
	// Hashtag, when set, keeps the posts that carry it (any case): a
	// hashtag clicked in a post.
	Hashtag string
}

// ThreadPage is one page of a channel's posts, newest first.
type ThreadPage struct {
	Results []*Thread `json:"results"`
}

// channelThreadsSQL reads a page of pageSize threads of the channel $1
// with their featured comments; $4 is the cursor (null for the first
// page). Postgres plans a prepared statement once for all its values only
// when that generic plan looks as cheap as planning each call (which costs
// more than running it here), so neither bound hides from the planner:
// the page size is written in the statement, a LIMIT $n being taken for a
// tenth of the channel, and the cursor is compared with a value, never with
// "$4 IS NULL OR …", which no index answers.
var channelThreadsSQL, channelHashtagThreadsSQL = channelPages(""), channelPages(" AND lower_tags(t.hashtags) @> ARRAY[lower($5::text)]")

// channelPages are the page statements of channelThreadsSQL, each with the
// condition and added (the hashtag's answers from its GIN index).
func channelPages(and string) (sql [MaxPageSize + 1]string) {
	for n := 1; n <= MaxPageSize; n++ {
		sql[n] = threadsSQL(`$1::uuid`, `SELECT t.* FROM acc, threads t
		WHERE acc.reads AND t.channel_id = $1 AND t.created_on < COALESCE($4::timestamptz, 'infinity')`+and+`
		ORDER BY t.created_on DESC, t.id DESC LIMIT `+strconv.Itoa(n), false)
	}
	return sql
}

// ChannelThreads reads a page of a channel's posts, newest first, each with
// its featured (first) comment. The admin channel is for forum admins only.
func (q *Queries) ChannelThreads(ctx context.Context, in ChannelThreads) (ThreadPage, error) {
	page := ThreadPage{Results: []*Thread{}}
	if in.PageSize < 1 || in.PageSize > MaxPageSize {
		return page, apperr.Invalid(map[string]string{"pageSize": fmt.Sprintf("must be 1 to %d", MaxPageSize)})
	}
	if in.Hashtag != "" && !richtext.IsHashtag(in.Hashtag) {
		return page, apperr.Invalid(map[string]string{"hashtag": "must be a hashtag's name: letters, digits or _, without #"})
	}
	args := []any{[16]byte(in.ChannelID), [16]byte(in.Viewer.UserID), in.Viewer.Role == auth.RoleSuper, in.CreatedBefore}
	sql := channelThreadsSQL[in.PageSize]
	if in.Hashtag != "" {
		sql, args = channelHashtagThreadsSQL[in.PageSize], append(args, in.Hashtag)
	}
	threads, err := q.threadRows(ctx, in.Viewer, sql, args...)
	if err != nil {
		return page, err
	}
	page.Results = threads
	return page, nil
}
