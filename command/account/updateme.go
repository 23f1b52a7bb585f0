package account

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
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/picture"
)

// UpdateMe is PATCH /users/me: the person's own fields, and optionally a new
// password given with the current one.
type UpdateMe struct {
	UserID          uuid.UUID
	SessionID       uuid.UUID
	Person          Person
	CurrentPassword *string
	NewPassword     *string
}

// UpdateMe changes the caller's own fields. A password change signs every
// other session out.
func (s *Service) UpdateMe(ctx context.Context, in UpdateMe) error {
	f := apperr.Fields{}
	in.Person.normalize(f)
	if in.NewPassword != nil {
		if in.CurrentPassword == nil {
			return apperr.MissingParameters("currentPassword")
		}
		if msg := auth.CheckPassword(*in.NewPassword); msg != "" {
			f.Add("password", msg)
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	var newHash string
	if in.NewPassword != nil {
		stored, err := db.One[model.Users](ctx, s.db, SELECT(table.Users.PasswordHash).FROM(table.Users).WHERE(table.Users.ID.EQ(UUID(in.UserID))))
		if err != nil {
			return fmt.Errorf("account: update me: %w", err)
		}
		ok, err := s.hasher.Verify(ctx, *in.CurrentPassword, stored.PasswordHash)
		if err != nil {
			return err
		}
		if !ok {
			return apperr.Invalid(map[string]string{"currentPassword": "is not correct"})
		}
		if newHash, err = s.hasher.Hash(ctx, *in.NewPassword); err != nil {
			return err
		}
	}
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		u, err := db.One[model.Users](ctx, tx, SELECT(table.Users.AllColumns).FROM(table.Users).WHERE(table.Users.ID.EQ(UUID(in.UserID))).
			FOR(UPDATE()))
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return err
		}
		var old string
		if u.Avatar != nil {
			old = *u.Avatar
		}
		applyPerson(&u, in.Person)
		if u.Avatar != nil {
			// An uploaded avatar is kept as a picture, not as its upload's
			// short-lived read URL.
			a, err := picture.Keep(ctx, tx, u.ID, "avatar", old, *u.Avatar)
			if err != nil {
				return err
			}
			u.Avatar = &a
		}
		u.UpdatedOn = s.now()
		if newHash != "" {
			u.PasswordHash = newHash
		}
		cols := table.Users.MutableColumns.Except(table.Users.Email, table.Users.EmailKey, table.Users.Role, table.Users.CreatedOn)
		if _, err := db.Exec(ctx, tx, table.Users.UPDATE(cols).MODEL(u).WHERE(table.Users.ID.EQ(UUID(u.ID)))); err != nil {
			return fmt.Errorf("account: update me: %w", err)
		}
		if newHash != "" {
			return s.revokeSessions(ctx, tx, u.ID, &in.SessionID)
		}
		return nil
	})
}
