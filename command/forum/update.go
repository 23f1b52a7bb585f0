package forum

import (
	"context"

	"fmt"

	. "github.com/go-jet/jet/v2/postgres"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/nullable"
	"agora/internal/rules/picture"
)

// Update is PATCH /series/{id}: absent fields stay as they are.
type Update struct {
	auth.Caller
	SeriesID     uuid.UUID
	Name         *string
	Description  *string
	Image        nullable.Field[string] // null clears the image
	Exclusivity  *string
	ShareEnabled *bool
	// Price and IsFree change what new subscriptions pay; existing
	// subscribers keep the Stripe Price they subscribed at.
	Price  *int
	IsFree *bool
}

// Update changes a forum's form, for its admins. An open forum stays open
// (ErrExclusivityLocked).
func (s *Service) Update(ctx context.Context, in Update) error {
	f := apperr.Fields{}
	name, desc := text(f, "name", in.Name, 90), description(f, in.Description)
	img := picture.Check(f, "image", in.Image.Value)
	excl := exclusivity(f, in.Exclusivity)
	price(f, in.Price)
	if err := f.Err(); err != nil {
		return err
	}
	now := s.now()
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := forumAdmin(ctx, tx, in.Caller, in.SeriesID); err != nil {
			return err
		}
		s := table.Series
		var current string
		if err := db.QueryRow(ctx, tx, SELECT(s.Exclusivity).FROM(s).WHERE(s.ID.EQ(UUID(in.SeriesID)))).Scan(&current); err != nil {
			return err
		}
		if current == Open && excl == InviteOnly {
			return ErrExclusivityLocked
		}
		// Only the given fields are set; the row is updated (updated_on)
		// either way.
		set := []ColumnAssigment{s.UpdatedOn.SET(TimestampzT(now))}
		if in.Name != nil {
			set = append(set, s.Name.SET(String(name)))
		}
		if in.Description != nil {
			set = append(set, s.Description.SET(String(desc)))
		}
		if in.Image.Set {
			// An image the caller uploaded is kept at its lasting address, as
			// a community's is; the address it had is sent back unchanged.
			var old *string
			if err := db.QueryRow(ctx, tx, SELECT(s.Image).FROM(s).WHERE(s.ID.EQ(UUID(in.SeriesID)))).Scan(&old); err != nil {
				return fmt.Errorf("forum: update: %w", err)
			}
			image, err := picture.KeepField(ctx, tx, in.UserID, "image", old, img)
			if err != nil {
				return err
			}
			set = append(set, s.Image.SET(textOrNull(image)))
		}
		if in.Exclusivity != nil {
			set = append(set, s.Exclusivity.SET(String(excl)))
		}
		if in.ShareEnabled != nil {
			set = append(set, s.ShareEnabled.SET(Bool(*in.ShareEnabled)))
		}
		if in.Price != nil {
			set = append(set, s.PriceCents.SET(Int(int64(*in.Price))))
		}
		if in.IsFree != nil {
			set = append(set, s.IsFree.SET(Bool(*in.IsFree)))
		}
		_, err := db.Exec(ctx, tx, s.UPDATE().SET(set[0], anys(set[1:])...).WHERE(s.ID.EQ(UUID(in.SeriesID))))
		if err != nil {
			return fmt.Errorf("forum: update: %w", err)
		}
		return nil
	})
}

func anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
