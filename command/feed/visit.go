package feed

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/google/uuid"

	"agora/internal/access"
	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db"
)

// Visit is POST /series/{id}/visits.
type Visit struct {
	SeriesID uuid.UUID
	Actor    auth.Caller
}

// Visit records that the caller opened the forum now and returns the time
// of their previous visit (nil on the first).
func (s *Service) Visit(ctx context.Context, in Visit) (*time.Time, error) {
	var prev *time.Time
	err := db.InTx(ctx, s.db, func(tx *sql.Tx) error {
		f, err := access.InForum(ctx, tx, in.Actor.UserID, in.Actor.Role, in.SeriesID)
		if err != nil {
			return err
		}
		if !f.Read() {
			return apperr.ErrForbidden
		}
		now := s.timestamp()
		err = tx.QueryRowContext(ctx, `INSERT INTO series_visits (series_id, user_id, visited_on) VALUES ($1, $2, $3)
			ON CONFLICT (series_id, user_id) DO UPDATE
			SET previously_visited_on = series_visits.visited_on, visited_on = EXCLUDED.visited_on
			RETURNING previously_visited_on`, in.SeriesID, in.Actor.UserID, now).Scan(&prev)
		if err != nil {
			return fmt.Errorf("feed: visit: %w", err)
		}
		// The log keeps every visit, for the forum's insights.
		if _, err := tx.ExecContext(ctx, `INSERT INTO series_visit_log (id, series_id, user_id, visited_on) VALUES ($1, $2, $3, $4)`,
			newID(), in.SeriesID, in.Actor.UserID, now); err != nil {
			return fmt.Errorf("feed: visit log: %w", err)
		}
		return nil
	})
	return prev, err
}
