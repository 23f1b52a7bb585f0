// Package community is the write side of communities: creating, editing
// and deleting them (for their managers), and adding and inviting members.
package community

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db"
	"agora/internal/db/gen/model"
	"agora/internal/db/gen/table"
	"agora/internal/membership"
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
	CommunityID    uuid.UUID
	ActorID        uuid.UUID
	ActorRole      auth.Role
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
		c, err := db.One[struct {
			model.Communities
			model.Organizations
		}](ctx, tx, SELECT(table.Communities.ID, table.Communities.OrganizationID, table.Organizations.Name).
			FROM(table.Communities.INNER_JOIN(table.Organizations, table.Organizations.ID.EQ(table.Communities.OrganizationID))).
			WHERE(table.Communities.ID.EQ(UUID(in.CommunityID))))
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return err
		}
		actor, err := s.actorName(ctx, tx, in, c.Communities.OrganizationID)
		if err != nil {
			return err
		}
		p, err := db.One[model.Profiles](ctx, tx, SELECT(table.Profiles.AllColumns).FROM(table.Profiles).
			WHERE(table.Profiles.OrganizationID.EQ(UUID(c.Communities.OrganizationID)).AND(table.Profiles.EmailKey.EQ(String(auth.EmailKey(email))))).
			FOR(UPDATE()))
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			id, err := uuid.NewV7()
			if err != nil {
				return err
			}
			now := s.now()
			p = model.Profiles{ID: id, OrganizationID: c.Communities.OrganizationID, Role: "member", Email: email, EmailKey: auth.EmailKey(email),
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
		if in.SendInvitation {
			return s.inviter.Invite(ctx, tx, p.ID, p.Email, p.FirstName, actor, c.Organizations.Name)
		}
		return nil
	})
	return profileID, err
}

// actorName authorises the actor (a community admin, an admin of the
// community's organization, or a super user) and returns their name for
// the invitation.
func (s *Service) actorName(ctx context.Context, tx pgx.Tx, in AddProfile, orgID uuid.UUID) (string, error) {
	u, err := db.One[model.Users](ctx, tx, SELECT(table.Users.FirstName, table.Users.LastName).FROM(table.Users).
		WHERE(table.Users.ID.EQ(UUID(in.ActorID))))
	if err != nil {
		return "", err
	}
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if in.ActorRole == auth.RoleSuper {
		return name, nil
	}
	var n int64
	err = db.QueryRow(ctx, tx, SELECT(COUNT(STAR)).
		FROM(table.Profiles.LEFT_JOIN(table.CommunityMemberships,
			table.CommunityMemberships.ProfileID.EQ(table.Profiles.ID).
				AND(table.CommunityMemberships.CommunityID.EQ(UUID(in.CommunityID))))).
		WHERE(table.Profiles.UserID.EQ(UUID(in.ActorID)).AND(
			table.Profiles.OrganizationID.EQ(UUID(orgID)).AND(table.Profiles.Role.EQ(String("admin"))).
				OR(table.CommunityMemberships.Role.IN(String("admin"), String("cascadingAdmin")).
					AND(table.CommunityMemberships.Status.EQ(String("active"))))))).
		Scan(&n)
	if err != nil {
		return "", err
	}
	if n == 0 {
		return "", apperr.ErrForbidden
	}
	return name, nil
}
