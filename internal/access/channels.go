package access

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/auth"
)

// Channel is a forum channel a user may read.
type Channel struct {
	ID       uuid.UUID
	SeriesID uuid.UUID
	// Kind is "main" (the feed) or "admin" (the admins' channel).
	Kind string
}

// PgxQuerier is what ReadableChannels reads through (a pgx pool, conn or tx).
type PgxQuerier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// ReadableChannels lists the forum channels the user may read: the main
// channel of each forum they read, the admin channel of each forum they
// administer, as Forum.Read and Forum.Admin decide. With forums given,
// only the channels of those. Searches scope their results with it.
func ReadableChannels(ctx context.Context, q PgxQuerier, userID uuid.UUID, role auth.Role, forums ...uuid.UUID) ([]Channel, error) {
	member, admin := ForumSQL("$1", "$2")
	var only []uuid.UUID
	if len(forums) > 0 {
		only = forums
	}
	rows, err := q.Query(ctx, `
		SELECT c.id, c.series_id, c.kind FROM series s JOIN channels c ON c.series_id = s.id
		WHERE ($3::uuid[] IS NULL OR s.id = ANY($3))
		  AND CASE c.kind WHEN 'main' THEN `+member+` OR `+admin+` ELSE `+admin+` END`,
		userID, role == auth.RoleSuper, only)
	if err != nil {
		return nil, fmt.Errorf("access: readable channels: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Channel, error) {
		var c Channel
		return c, r.Scan(&c.ID, &c.SeriesID, &c.Kind)
	})
	if err != nil {
		return nil, fmt.Errorf("access: readable channels: %w", err)
	}
	return out, nil
}
