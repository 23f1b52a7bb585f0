package account

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
	"agora/internal/rules/onetime"
)

func (q *Queries) oneTime(ctx context.Context, token string, kinds ...string) (model.Tokens, error) {
	return onetime.Find(ctx, q.db, token, false, q.now(), kinds...)
}

// ResetCheck is GET /tokens/passwordReset/{token}: the link is usable.
type ResetCheck struct {
	Valid     bool          `json:"valid"`
	ExpiresOn jsontime.Time `json:"expiresOn"`
}

// CheckPasswordReset tells whether a reset link can still be used.
func (q *Queries) CheckPasswordReset(ctx context.Context, token string) (ResetCheck, error) {
	row, err := q.oneTime(ctx, token, "passwordReset")
	if err != nil {
		return ResetCheck{}, err
	}
	return ResetCheck{Valid: true, ExpiresOn: jsontime.Of(row.ExpiresOn)}, nil
}

// Invitation is GET /tokens/{token}/validate: what the registration form
// pre-fills from an invitation or confirmation.
type Invitation struct {
	Kind             string        `json:"kind"`
	Email            string        `json:"email"`
	FirstName        string        `json:"firstName"`
	LastName         string        `json:"lastName"`
	ProfileID        *uuid.UUID    `json:"profileId"`
	OrganizationName string        `json:"organizationName"`
	HasAccount       bool          `json:"hasAccount"`
	ExpiresOn        jsontime.Time `json:"expiresOn"`
	// Community and Forum are where the invitation was sent from: the
	// person lands there after signing up (null: home).
	Community *Place `json:"community"`
	Forum     *Place `json:"forum"`
}

// Place is a community or forum an invitation leads into.
type Place struct {
	ID   uuid.UUID `json:"id"`
	Name string    `json:"name"`
}

// ValidateToken checks an invitation or confirmation token. A confirmation
// needs the address it was sent to (spec 002 §5).
func (q *Queries) ValidateToken(ctx context.Context, token, email string) (Invitation, error) {
	row, err := q.oneTime(ctx, token, "invitation", "confirmation")
	if err != nil {
		if row.Kind == "confirmation" {
			return Invitation{}, auth.ErrConfirmation.Wrap(err)
		}
		return Invitation{}, auth.ErrInvitation.Wrap(err)
	}
	if row.Kind == "confirmation" {
		if email == "" {
			return Invitation{}, apperr.MissingParameters("email")
		}
		if auth.EmailKey(email) != auth.EmailKey(row.Email) {
			return Invitation{}, auth.ErrConfirmation
		}
	}
	inv := Invitation{Kind: row.Kind, Email: row.Email, ProfileID: row.ProfileID, ExpiresOn: jsontime.Of(row.ExpiresOn)}
	if row.ProfileID != nil {
		p, err := db.One[struct {
			model.Profiles
			model.Organizations
		}](ctx, q.db, SELECT(table.Profiles.FirstName, table.Profiles.LastName, table.Organizations.Name).
			FROM(table.Profiles.INNER_JOIN(table.Organizations, table.Organizations.ID.EQ(table.Profiles.OrganizationID))).
			WHERE(table.Profiles.ID.EQ(UUID(*row.ProfileID))))
		if err != nil {
			return Invitation{}, fmt.Errorf("account: invitation profile: %w", err)
		}
		inv.FirstName, inv.LastName, inv.OrganizationName = p.Profiles.FirstName, p.Profiles.LastName, p.Organizations.Name
	}
	c, s := table.Communities, table.Series
	if row.CommunityID != nil {
		p, err := db.One[Place](ctx, q.db, SELECT(c.ID.AS("id"), c.Name.AS("name")).FROM(c).WHERE(c.ID.EQ(UUID(*row.CommunityID))))
		if err != nil {
			return Invitation{}, fmt.Errorf("account: invitation community: %w", err)
		}
		inv.Community = &p
	}
	if row.SeriesID != nil {
		p, err := db.One[Place](ctx, q.db, SELECT(s.ID.AS("id"), s.Name.AS("name")).FROM(s).WHERE(s.ID.EQ(UUID(*row.SeriesID))))
		if err != nil {
			return Invitation{}, fmt.Errorf("account: invitation forum: %w", err)
		}
		inv.Forum = &p
	}
	var n int64
	if err := db.QueryRow(ctx, q.db, SELECT(COUNT(STAR)).FROM(table.Users).
		WHERE(table.Users.EmailKey.EQ(String(auth.EmailKey(row.Email))))).Scan(&n); err != nil {
		return Invitation{}, err
	}
	inv.HasAccount = n > 0
	return inv, nil
}
