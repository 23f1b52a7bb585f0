package aisearch

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/go-jet/jet/v2/qrm"
	"github.com/google/uuid"

	"agora/internal/access"
	"agora/internal/apperr"
	"agora/internal/auth"
)

// queryer is *sql.DB or *sql.Tx.
type queryer interface {
	qrm.Queryable
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// channel is a forum channel and what the asker may read of its forum.
type channel struct {
	ID       uuid.UUID
	SeriesID uuid.UUID
	Kind     string
	// Main and Admin are the ids of the forum's two channels.
	Main, Admin uuid.UUID
	Forum       access.Forum
}

// readable returns the ids of the forum's channels the asker may read: the
// main channel for its readers, the admin channel for its admins too.
func (c channel) readable() []string {
	var ids []string
	if c.Forum.Read() && c.Main != uuid.Nil {
		ids = append(ids, c.Main.String())
	}
	if c.Forum.Admin && c.Admin != uuid.Nil {
		ids = append(ids, c.Admin.String())
	}
	return ids
}

// readChannel finds a forum channel the viewer may read: an unknown channel
// is not found; one the viewer may not read (the admin channel: forum
// admins only) is forbidden.
func readChannel(ctx context.Context, q queryer, v auth.Caller, id uuid.UUID) (channel, error) {
	c := channel{ID: id}
	var series *uuid.UUID
	err := q.QueryRowContext(ctx, `SELECT c.series_id, c.kind,
			(SELECT m.id FROM channels m WHERE m.series_id = c.series_id AND m.kind = 'main'),
			(SELECT a.id FROM channels a WHERE a.series_id = c.series_id AND a.kind = 'admin')
		FROM channels c WHERE c.id = $1`, id).Scan(&series, &c.Kind, &c.Main, &c.Admin)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && series == nil) {
		return c, apperr.ErrNotFound
	}
	if err != nil {
		return c, fmt.Errorf("aisearch: channel: %w", err)
	}
	c.SeriesID = *series
	c.Forum, err = access.InForum(ctx, q, v.UserID, v.Role, c.SeriesID)
	if errors.Is(err, access.ErrForumNotFound) {
		return c, apperr.ErrNotFound
	}
	if err != nil {
		return c, err
	}
	if !c.Forum.Read() || (c.Kind == "admin" && !c.Forum.Admin) {
		return c, apperr.ErrForbidden
	}
	return c, nil
}
