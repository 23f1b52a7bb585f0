package aisearch

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
// and one the viewer may not read (its forum's, or the admin channel, for
// forum admins only) are alike not found.
func readChannel(ctx context.Context, q db.Querier, v auth.Caller, id uuid.UUID) (channel, error) {
	c := channel{ID: id}
	var series, main, admin *uuid.UUID
	ch, m, a := table.Channels, table.Channels.AS("m"), table.Channels.AS("a")
	err := db.QueryRow(ctx, q, SELECT(ch.SeriesID, ch.Kind,
		SELECT(m.ID).FROM(m).WHERE(m.SeriesID.EQ(ch.SeriesID).AND(m.Kind.EQ(String("main")))),
		SELECT(a.ID).FROM(a).WHERE(a.SeriesID.EQ(ch.SeriesID).AND(a.Kind.EQ(String("admin"))))).
		FROM(ch).WHERE(ch.ID.EQ(UUID(id)))).Scan(&series, &c.Kind, &main, &admin)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && series == nil) {
		return c, apperr.ErrNotFound
	}
	if err != nil {
		return c, fmt.Errorf("aisearch: channel: %w", err)
	}
	c.SeriesID = *series
	if main != nil {
		c.Main = *main
	}
	if admin != nil {
		c.Admin = *admin
	}
	c.Forum, err = access.ReadForum(ctx, q, v.UserID, v.Role, c.SeriesID)
	if err != nil {
		return c, err
	}
	if c.Kind == "admin" && !c.Forum.Admin {
		return c, access.ErrForumNotFound
	}
	return c, nil
}
