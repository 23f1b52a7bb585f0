package feed

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"agora/internal/apperr"
)

// Feed page sizes (spec 001 §9: the client reads 10 at a time).
const (
	DefaultPageSize = 10
	MaxPageSize     = 50
)

// ChannelThreads is GET /channels/{id}/threads.
type ChannelThreads struct {
	ChannelID uuid.UUID
	Viewer    Viewer
	// CreatedBefore is the cursor: the smallest createdOn of the previous page.
	CreatedBefore *time.Time
	PageSize      int
}

// ThreadPage is one page of a channel's posts, newest first.
type ThreadPage struct {
	Results []*Thread `json:"results"`
}

// ChannelThreads reads a page of a channel's posts, newest first, each with
// its featured (first) comment. The admin channel is for forum admins only.
func (q *Queries) ChannelThreads(ctx context.Context, in ChannelThreads) (ThreadPage, error) {
	page := ThreadPage{Results: []*Thread{}}
	if in.PageSize == 0 {
		in.PageSize = DefaultPageSize
	}
	if in.PageSize < 1 || in.PageSize > MaxPageSize {
		return page, apperr.Invalid(map[string]string{"pageSize": fmt.Sprintf("must be 1 to %d", MaxPageSize)})
	}
	var seriesID uuid.UUID
	var kind string
	err := q.db.QueryRowContext(ctx, `SELECT series_id, kind FROM channels WHERE id = $1`, in.ChannelID).Scan(&seriesID, &kind)
	if errors.Is(err, sql.ErrNoRows) {
		return page, apperr.ErrNotFound
	}
	if err != nil {
		return page, fmt.Errorf("feed: channel: %w", err)
	}
	f, err := readForum(ctx, q.db, in.Viewer, seriesID)
	if err != nil {
		return page, err
	}
	if kind == "admin" && !f.Admin {
		return page, apperr.ErrForbidden
	}
	var before any
	if in.CreatedBefore != nil {
		before = *in.CreatedBefore
	}
	rows, err := q.db.QueryContext(ctx, `SELECT `+threadCols+` FROM threads t JOIN users u ON u.id = t.creator_id
		WHERE t.channel_id = $1 AND ($2::timestamptz IS NULL OR t.created_on < $2)
		ORDER BY t.created_on DESC, t.id DESC LIMIT $3`, in.ChannelID, before, in.PageSize)
	if err != nil {
		return page, fmt.Errorf("feed: threads: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		t, err := scanThread(rows)
		if err != nil {
			return page, err
		}
		page.Results = append(page.Results, t)
	}
	if err := rows.Err(); err != nil {
		return page, err
	}
	rows.Close()
	return page, q.fill(ctx, in.Viewer, f, page.Results, false)
}
