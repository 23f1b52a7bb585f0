package community

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
	"agora/internal/rules/picture"
)

// Update is PATCH /communities/{id}: absent fields stay as they are.
type Update struct {
	auth.Caller
	CommunityID uuid.UUID
	Form
}

// Delete is DELETE /communities/{id}.
type Delete struct {
	auth.Caller
	CommunityID uuid.UUID
}

// Update changes a community's form, for its managers.
func (s *Service) Update(ctx context.Context, in Update) error {
	bad := apperr.Fields{}
	f := in.check(bad)
	if err := bad.Err(); err != nil {
		return err
	}
	c := table.Communities
	// Only the given fields are set; the row is updated (updated_on)
	// either way.
	set := []ColumnAssigment{c.UpdatedOn.SET(TimestampzT(s.now()))}
	add := func(sent bool, a ColumnAssigment) {
		if sent {
			set = append(set, a)
		}
	}
	add(in.Name != nil, c.Name.SET(String(f.name)))
	add(in.Description != nil, c.Description.SET(String(f.description)))
	add(in.Video.Set, c.Video.SET(textOrNull(f.video)))
	add(in.VideoCover.Set, c.VideoCover.SET(textOrNull(f.videoCover)))
	if in.SSOAccess != nil {
		set = append(set, c.SsoAccess.SET(Bool(*in.SSOAccess)))
	}
	if in.Price != nil {
		set = append(set, c.PriceCents.SET(Int(int64(*in.Price))))
	}
	if in.IsFree != nil {
		set = append(set, c.IsFree.SET(Bool(*in.IsFree)))
	}
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := manager(ctx, tx, in.Caller, in.CommunityID); err != nil {
			return err
		}
		if in.Image.Set {
			var old *string
			if err := db.QueryRow(ctx, tx, SELECT(c.Image).FROM(c).WHERE(c.ID.EQ(UUID(in.CommunityID)))).Scan(&old); err != nil {
				return fmt.Errorf("community: update: %w", err)
			}
			image, err := picture.KeepField(ctx, tx, in.UserID, "image", old, f.image)
			if err != nil {
				return err
			}
			set = append(set, c.Image.SET(textOrNull(image)))
		}
		rest := make([]any, len(set)-1)
		for i, a := range set[1:] {
			rest[i] = a
		}
		if _, err := db.Exec(ctx, tx, c.UPDATE().SET(set[0], rest...).WHERE(c.ID.EQ(UUID(in.CommunityID)))); err != nil {
			return fmt.Errorf("community: update: %w", err)
		}
		return nil
	})
}

// Delete removes a community for its managers; its forums, their posts
// and Meet Ups, and its memberships go with it (foreign keys cascade), and
// the change pipeline removes them from the read stores.
func (s *Service) Delete(ctx context.Context, in Delete) error {
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := manager(ctx, tx, in.Caller, in.CommunityID); err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, table.Communities.DELETE().WHERE(table.Communities.ID.EQ(UUID(in.CommunityID)))); err != nil {
			return fmt.Errorf("community: delete: %w", err)
		}
		return nil
	})
}
