// Package forum is the write side of forums (series): the forum form,
// their order in a community, and who has access (staged assignments and
// invitations, spec 001 §4–§6).
package forum

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
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
	"agora/internal/rules/membership"
)

// Inviter issues and mails an invitation inside a transaction
// (account.Service.Invite).
type Inviter = membership.Inviter

// Service runs the forum commands.
type Service struct {
	db      *pgxpool.Pool
	inviter Inviter
	now     func() time.Time
}

// New builds the service.
func New(d *db.DB, inviter Inviter) (*Service, error) {
	if d == nil || d.Pool == nil || inviter == nil {
		return nil, errors.New("forum.New: nil dependency")
	}
	return &Service{db: d.Pool, inviter: inviter, now: time.Now}, nil
}

// ErrForumAdminOnly is a forum call for its admins only.
var ErrForumAdminOnly = apperr.New(apperr.Forbidden, "forbidden", "only the forum's admins may do this")

// forumAdmin checks that the actor administers the forum (a forum they
// may not read is ErrForumNotFound); inside tx, the
// forum row is locked so that concurrent changes of one forum queue up.
func forumAdmin(ctx context.Context, tx pgx.Tx, a auth.Caller, seriesID uuid.UUID) (access.Forum, error) {
	if err := db.Lock(ctx, tx, table.Series, table.Series.ID, seriesID, access.ErrForumNotFound); err != nil {
		return access.Forum{}, err
	}
	// A forum the actor may not read is as unknown as a missing one; a
	// reader who is no admin may know it exists.
	f, err := access.ReadForum(ctx, tx, a.UserID, a.Role, seriesID)
	if err != nil {
		return f, err
	}
	if !f.Admin {
		return f, ErrForumAdminOnly
	}
	return f, nil
}
