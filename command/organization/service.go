// Package organization is the write side of organizations: creating,
// editing and deleting them, and the people (profiles) an organization
// holds, with their invitations.
package organization

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/rules/access"
	"agora/internal/rules/membership"
)

// Inviter issues and mails an invitation inside a transaction (the
// account service's Invite: one invitation path for every area).
type Inviter = membership.Inviter

// Service runs the organization commands.
type Service struct {
	db      *pgxpool.Pool
	inviter Inviter
	now     func() time.Time
}

// New builds the service.
func New(d *db.DB, inviter Inviter) (*Service, error) {
	if d == nil || d.Pool == nil || inviter == nil {
		return nil, errors.New("organization.New: nil dependency")
	}
	return &Service{db: d.Pool, inviter: inviter, now: time.Now}, nil
}

// ErrEmailConflict is an address another profile of the organization has
// (spec 000 §5: a 409 shows an email conflict message on the form).
var ErrEmailConflict = apperr.New(apperr.Conflict, "emailConflict", "this email already belongs to a person of the organization")

// manage resolves the caller's rights in the organization, inside tx, and
// refuses one who may not manage it: one who may not see it gets the 404
// of an unknown id, a member of it a 403.
func manage(ctx context.Context, tx pgx.Tx, c auth.Caller, orgID uuid.UUID) (access.Organization, error) {
	o, err := access.SeeOrganization(ctx, tx, c.UserID, c.Role, orgID)
	if err != nil {
		return o, err
	}
	if !o.Admin {
		return o, apperr.ErrForbidden
	}
	return o, nil
}
