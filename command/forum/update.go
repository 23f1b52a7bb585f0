package forum

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/google/uuid"

	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db"
)

// Update is PATCH /series/{id}: absent fields stay as they are.
type Update struct {
	auth.Caller
	SeriesID     uuid.UUID
	Name         *string
	Description  *string
	ImageSet     bool
	Image        *string // with ImageSet, nil clears the image
	Exclusivity  *string
	ShareEnabled *bool
}

// Update changes a forum's form, for its admins. An open forum stays open
// (ErrExclusivityLocked).
func (s *Service) Update(ctx context.Context, in Update) error {
	f := apperr.Fields{}
	name, desc := text(f, "name", in.Name, 90), text(f, "description", in.Description, 1000)
	img := image(f, in.Image)
	excl := exclusivity(f, in.Exclusivity)
	if err := f.Err(); err != nil {
		return err
	}
	return db.InTx(ctx, s.db, func(tx *sql.Tx) error {
		if _, err := forumAdmin(ctx, tx, in.Caller, in.SeriesID); err != nil {
			return err
		}
		var current string
		if err := tx.QueryRowContext(ctx, `SELECT exclusivity FROM series WHERE id = $1`, in.SeriesID).Scan(&current); err != nil {
			return err
		}
		if current == Open && excl == InviteOnly {
			return ErrExclusivityLocked
		}
		_, err := tx.ExecContext(ctx, `
			UPDATE series SET
				name = CASE WHEN $2 THEN $3 ELSE name END,
				description = CASE WHEN $4 THEN $5 ELSE description END,
				image = CASE WHEN $6 THEN $7 ELSE image END,
				exclusivity = CASE WHEN $8 THEN $9 ELSE exclusivity END,
				share_enabled = coalesce($10, share_enabled),
				updated_on = $11
			WHERE id = $1`, in.SeriesID, in.Name != nil, name, in.Description != nil, desc, in.ImageSet, img,
			in.Exclusivity != nil, excl, in.ShareEnabled, s.now())
		if err != nil {
			return fmt.Errorf("forum: update: %w", err)
		}
		return nil
	})
}
