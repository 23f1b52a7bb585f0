package organization

import (
	"context"
	"errors"
	"fmt"

	"agora/internal/rules/membership"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// AddProfile is POST /organizations/{id}/profiles.
type AddProfile struct {
	auth.Caller
	OrganizationID uuid.UUID
	membership.ProfileFields
	SendInvitation bool
}

// AddProfile adds a person to an organization, for its admins and super
// users: a profile that waits for its person to register (the invitation,
// mailed when asked for, joins them). An address the organization already
// has is ErrEmailConflict.
func (s *Service) AddProfile(ctx context.Context, in AddProfile) (uuid.UUID, error) {
	var missing []string
	for name, v := range map[string]*string{"firstName": in.FirstName, "lastName": in.LastName, "email": in.Email} {
		if v == nil {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return uuid.Nil, apperr.MissingParameters(missing...)
	}
	f := apperr.Fields{}
	in.Check(f)
	if err := f.Err(); err != nil {
		return uuid.Nil, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.Nil, err
	}
	role, tags := membership.RoleMember, in.Tags
	if in.RoleID != nil {
		role = *in.RoleID
	}
	if tags == nil {
		tags = []string{}
	}
	now := s.now()
	p := model.Profiles{ID: id, OrganizationID: in.OrganizationID, Role: role, Email: *in.Email, EmailKey: auth.EmailKey(*in.Email),
		FirstName: *in.FirstName, LastName: *in.LastName, InterestTags: tags, CreatedOn: now, UpdatedOn: now}
	err = db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := manage(ctx, tx, in.Caller, in.OrganizationID); err != nil {
			return err
		}
		t := table.Profiles
		res, err := db.Exec(ctx, tx, t.INSERT(t.ID, t.OrganizationID, t.Role, t.Email, t.EmailKey, t.FirstName, t.LastName,
			t.InterestTags, t.CreatedOn, t.UpdatedOn).MODEL(p).
			ON_CONFLICT(t.OrganizationID, t.EmailKey).DO_NOTHING())
		if err != nil {
			return fmt.Errorf("organization: add profile: %w", err)
		}
		if res.RowsAffected() == 0 {
			return ErrEmailConflict
		}
		if !in.SendInvitation {
			return nil
		}
		return membership.InviteProfile(ctx, tx, s.inviter, in.UserID, membership.Into{Organization: in.OrganizationID}, p.ID, p.Email, p.FirstName)
	})
	return id, err
}

// UpdateProfile is PATCH /profiles/{id}: a field not sent is kept.
type UpdateProfile struct {
	auth.Caller
	ProfileID uuid.UUID
	membership.ProfileFields
}

// UpdateProfile edits a profile, for the admins of its organization and
// super users. Once its person has registered, their name and address are
// their own account's (the profile shows those): sending them unchanged is
// accepted, changing them is refused.
func (s *Service) UpdateProfile(ctx context.Context, in UpdateProfile) error {
	f := apperr.Fields{}
	in.Check(f)
	if err := f.Err(); err != nil {
		return err
	}
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		p, u := table.Profiles, table.Users
		var orgID uuid.UUID
		var userID, first, last, email *string
		err := db.QueryRow(ctx, tx, SELECT(p.OrganizationID, text(p.UserID), u.FirstName, u.LastName, u.Email).
			FROM(p.LEFT_JOIN(u, u.ID.EQ(p.UserID))).
			// A profile the caller may not read is not found, as a
			// missing one is (issue 31, G7: a 403 told them apart).
			WHERE(p.ID.EQ(UUID(in.ProfileID)).AND(access.ProfileVisible(in.UserID, in.Role == auth.RoleSuper))).FOR(UPDATE().OF(p))).
			Scan(&orgID, &userID, &first, &last, &email)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("organization: update profile: %w", err)
		}
		if _, err := manage(ctx, tx, in.Caller, orgID); err != nil {
			return err
		}
		row := model.Profiles{ID: in.ProfileID, UpdatedOn: s.now()}
		cols := ColumnList{}
		if userID != nil {
			// Registered: the names and address are the account's.
			if in.Email != nil && email != nil && auth.EmailKey(*in.Email) == auth.EmailKey(*email) {
				in.Email = email // the same address written otherwise is no change
			}
			for _, o := range []struct {
				field       string
				sent, yours *string
			}{{"firstName", in.FirstName, first}, {"lastName", in.LastName, last}, {"email", in.Email, email}} {
				if o.sent != nil && (o.yours == nil || *o.sent != *o.yours) {
					f.Add(o.field, "is the member's own since they registered: they change it in their account")
				}
			}
			if err := f.Err(); err != nil {
				return err
			}
		} else {
			if in.FirstName != nil {
				row.FirstName, cols = *in.FirstName, append(cols, p.FirstName)
			}
			if in.LastName != nil {
				row.LastName, cols = *in.LastName, append(cols, p.LastName)
			}
			if in.Email != nil {
				row.Email, row.EmailKey, cols = *in.Email, auth.EmailKey(*in.Email), append(cols, p.Email, p.EmailKey)
				var taken bool
				if err := db.QueryRow(ctx, tx, SELECT(EXISTS(SELECT(p.ID).FROM(p).WHERE(p.OrganizationID.EQ(UUID(orgID)).
					AND(p.EmailKey.EQ(String(row.EmailKey))).AND(p.ID.NOT_EQ(UUID(in.ProfileID))))))).Scan(&taken); err != nil {
					return fmt.Errorf("organization: update profile: %w", err)
				}
				if taken {
					return ErrEmailConflict
				}
			}
		}
		if in.RoleID != nil {
			row.Role, cols = *in.RoleID, append(cols, p.Role)
		}
		if in.Tags != nil {
			row.InterestTags, cols = in.Tags, append(cols, p.InterestTags)
		}
		if len(cols) == 0 {
			return nil
		}
		if _, err := db.Exec(ctx, tx, p.UPDATE(append(cols, p.UpdatedOn)).MODEL(row).WHERE(p.ID.EQ(UUID(in.ProfileID)))); err != nil {
			return fmt.Errorf("organization: update profile: %w", err)
		}
		return nil
	})
}

// text is a uuid column as text, so that a null reads into a *string.
func text(e Expression) StringExpression { return CAST(e).AS_TEXT() }
