// Package community is the write side of communities: creating, editing
// and deleting them (for their managers), and adding and inviting members.
package community

import (
	"context"
	"errors"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/membership"
)

// Inviter issues and mails an invitation inside a transaction.
type Inviter = membership.Inviter

// Service runs the community commands.
type Service struct {
	db      *pgxpool.Pool
	inviter Inviter
	now     func() time.Time
}

// New builds the service.
func New(d *db.DB, inviter Inviter) (*Service, error) {
	if d == nil || d.Pool == nil || inviter == nil {
		return nil, errors.New("community.New: nil dependency")
	}
	return &Service{db: d.Pool, inviter: inviter, now: time.Now}, nil
}

// ErrEmailConflict is a member that the community already has (spec 000 §5:
// a 409 shows an email conflict message on the form).
var ErrEmailConflict = apperr.New(apperr.Conflict, "emailConflict", "this email already belongs to a member of the community")

// AddProfile is POST /communities/{communityId}/profiles.
type AddProfile struct {
	auth.Caller
	CommunityID    uuid.UUID
	FirstName      *string
	LastName       *string
	Email          *string
	RoleID         string
	Tags           string
	SendInvitation bool
}

// AddProfile adds a person to a community: their organization profile is
// created when new, the membership is active for someone who already has
// an account joined to the profile and pending otherwise, and an invitation
// is mailed when asked for.
func (s *Service) AddProfile(ctx context.Context, in AddProfile) (uuid.UUID, error) {
	var missing []string
	if in.FirstName == nil {
		missing = append(missing, "firstName")
	}
	if in.LastName == nil {
		missing = append(missing, "lastName")
	}
	if in.Email == nil {
		missing = append(missing, "email")
	}
	if len(missing) > 0 {
		return uuid.Nil, apperr.MissingParameters(missing...)
	}
	f := apperr.Fields{}
	m := membership.CheckNew(f, *in.FirstName, *in.LastName, *in.Email, in.RoleID, in.Tags)
	if err := f.Err(); err != nil {
		return uuid.Nil, err
	}
	first, last, email, role, tags := m.FirstName, m.LastName, m.Email, m.Role, m.Tags

	var profileID uuid.UUID
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		c, err := manager(ctx, tx, in.Caller, in.CommunityID)
		if err != nil {
			return err
		}
		p, err := db.One[model.Profiles](ctx, tx, SELECT(table.Profiles.AllColumns).FROM(table.Profiles).
			WHERE(table.Profiles.OrganizationID.EQ(UUID(c.OrganizationID)).AND(table.Profiles.EmailKey.EQ(String(auth.EmailKey(email))))).
			FOR(UPDATE()))
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			id, err := uuid.NewV7()
			if err != nil {
				return err
			}
			now := s.now()
			p = model.Profiles{ID: id, OrganizationID: c.OrganizationID, Role: "member", Email: email, EmailKey: auth.EmailKey(email),
				FirstName: first, LastName: last, InterestTags: tags, CreatedOn: now, UpdatedOn: now}
			if _, err := db.Exec(ctx, tx, table.Profiles.INSERT(table.Profiles.AllColumns).MODEL(p)); err != nil {
				return fmt.Errorf("community: add profile: %w", err)
			}
		case err != nil:
			return err
		}
		status := "pending"
		if p.UserID != nil {
			status = "active"
		}
		res, err := db.Exec(ctx, tx, table.CommunityMemberships.INSERT(table.CommunityMemberships.CommunityID, table.CommunityMemberships.ProfileID,
			table.CommunityMemberships.Role, table.CommunityMemberships.Status, table.CommunityMemberships.AssignedOn).
			VALUES(UUID(in.CommunityID), UUID(p.ID), String(role), String(status), TimestampzT(s.now())).
			ON_CONFLICT(table.CommunityMemberships.CommunityID, table.CommunityMemberships.ProfileID).DO_NOTHING())
		if err != nil {
			return fmt.Errorf("community: add membership: %w", err)
		}
		if res.RowsAffected() == 0 {
			return ErrEmailConflict
		}
		profileID = p.ID
		if !in.SendInvitation {
			return nil
		}
		into := membership.Into{Organization: c.OrganizationID, Community: &in.CommunityID}
		return membership.InviteProfile(ctx, tx, s.inviter, in.UserID, into, p.ID, p.Email, p.FirstName)
	})
	return profileID, err
}
