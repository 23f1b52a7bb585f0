package organization

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/nullable"
	"agora/internal/rules/picture"
	"agora/internal/rules/plaintext"
)

// NameMax is the longest organization name, the community name's limit
// (spec 000 §9: 1 to 75 characters).
const NameMax = 75

// Create is POST /organizations.
type Create struct {
	auth.Caller
	Name  *string
	Image *string
}

// Create makes an organization, for super users only (spec 000 §6).
func (s *Service) Create(ctx context.Context, in Create) (uuid.UUID, error) {
	if in.Caller.Role != auth.RoleSuper {
		return uuid.Nil, apperr.ErrForbidden
	}
	if in.Name == nil {
		return uuid.Nil, apperr.MissingParameters("name")
	}
	f := apperr.Fields{}
	name := orgName(f, *in.Name)
	img := picture.Check(f, "image", in.Image)
	if err := f.Err(); err != nil {
		return uuid.Nil, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.Nil, err
	}
	now := s.now()
	row := model.Organizations{ID: id, Name: name, CreatedOn: now, UpdatedOn: now}
	o := table.Organizations
	err = db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if row.Image, err = picture.KeepField(ctx, tx, in.UserID, "image", nil, img); err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, o.INSERT(o.ID, o.Name, o.Image, o.CreatedOn, o.UpdatedOn).MODEL(row)); err != nil {
			return fmt.Errorf("organization: create: %w", err)
		}
		return nil
	})
	return id, err
}

// Update is PATCH /organizations/{id}: a field not sent is kept; the image
// may be sent as null to remove it.
type Update struct {
	auth.Caller
	OrganizationID uuid.UUID
	Name           *string
	Image          nullable.Field[string]
}

// Update edits an organization, for its admins and super users.
func (s *Service) Update(ctx context.Context, in Update) error {
	f := apperr.Fields{}
	o := table.Organizations
	set := []any{}
	cols := ColumnList{}
	if in.Name != nil {
		cols = append(cols, o.Name)
		set = append(set, String(orgName(f, *in.Name)))
	}
	img := picture.Check(f, "image", in.Image.Value)
	if err := f.Err(); err != nil {
		return err
	}
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := manage(ctx, tx, in.Caller, in.OrganizationID); err != nil {
			return err
		}
		if in.Image.Set {
			var old *string
			if err := db.QueryRow(ctx, tx, SELECT(o.Image).FROM(o).WHERE(o.ID.EQ(UUID(in.OrganizationID)))).Scan(&old); err != nil {
				return fmt.Errorf("organization: update: %w", err)
			}
			kept, err := picture.KeepField(ctx, tx, in.UserID, "image", old, img)
			if err != nil {
				return err
			}
			cols = append(cols, o.Image)
			if kept != nil {
				set = append(set, String(*kept))
			} else {
				set = append(set, NULL)
			}
		}
		if len(cols) == 0 {
			return nil
		}
		cols = append(cols, o.UpdatedOn)
		set = append(set, TimestampzT(s.now()))
		if _, err := db.Exec(ctx, tx, o.UPDATE(cols).SET(set[0], set[1:]...).WHERE(o.ID.EQ(UUID(in.OrganizationID)))); err != nil {
			return fmt.Errorf("organization: update: %w", err)
		}
		return nil
	})
}

// Delete is DELETE /organizations/{id}.
type Delete struct {
	auth.Caller
	OrganizationID uuid.UUID
}

// Delete removes an organization, for super users only: its profiles,
// communities, forums, posts and memberships go with it (the schema's
// cascades), and the change stream removes them from the search indexes.
func (s *Service) Delete(ctx context.Context, in Delete) error {
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		o, err := manage(ctx, tx, in.Caller, in.OrganizationID)
		if err != nil {
			return err
		}
		if !o.Super {
			return apperr.ErrForbidden
		}
		t := table.Organizations
		if _, err := db.Exec(ctx, tx, t.DELETE().WHERE(t.ID.EQ(UUID(in.OrganizationID)))); err != nil {
			return fmt.Errorf("organization: delete: %w", err)
		}
		return nil
	})
}

// orgName trims a name and checks it (plaintext.Required): 1 to 75
// characters, clean.
func orgName(f apperr.Fields, v string) string {
	return plaintext.Required(f, "name", v, NameMax)
}
