package account

import (
	"context"
	"errors"
	"fmt"
	"strings"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
)

// SignIn is POST /sessions.
type SignIn struct {
	Email     string
	Password  string
	IP        string
	UserAgent string
}

// SignIn checks the credentials and opens a session. Attempts are limited
// per IP and per address before any password work is done.
func (s *Service) SignIn(ctx context.Context, in SignIn) (Session, error) {
	in.Email = strings.TrimSpace(in.Email)
	var missing []string
	if in.Email == "" {
		missing = append(missing, "email")
	}
	if in.Password == "" {
		missing = append(missing, "password")
	}
	if len(missing) > 0 {
		return Session{}, apperr.MissingParameters(missing...)
	}
	if len(in.Email) > 254 || len(in.Password) > 1024 {
		return Session{}, ErrLogin
	}
	if ok, retry := s.signInPerIP.Allow(in.IP); !ok {
		return Session{}, tooMany(retry)
	}
	if ok, retry := s.signInPerAccount.Allow(auth.EmailKey(in.Email)); !ok {
		return Session{}, tooMany(retry)
	}
	u, err := db.One[model.Users](ctx, s.db, SELECT(table.Users.AllColumns).FROM(table.Users).
		WHERE(table.Users.EmailKey.EQ(String(auth.EmailKey(in.Email)))))
	if errors.Is(err, pgx.ErrNoRows) {
		_, _ = s.hasher.Verify(ctx, in.Password, s.dummyHash)
		return Session{}, ErrLogin
	}
	if err != nil {
		return Session{}, fmt.Errorf("account: sign in: %w", err)
	}
	ok, err := s.hasher.Verify(ctx, in.Password, u.PasswordHash)
	if err != nil {
		return Session{}, fmt.Errorf("account: sign in: %w", err)
	}
	if !ok {
		return Session{}, ErrLogin
	}
	return s.createSession(ctx, s.db, u, in.IP, in.UserAgent)
}

// SignOut revokes the caller's session on the server, so the token stops
// working even if a copy of it survives in the browser.
func (s *Service) SignOut(ctx context.Context, sessionID uuid.UUID) error {
	_, err := db.Exec(ctx, s.db, table.Sessions.UPDATE(table.Sessions.RevokedOn).SET(TimestampzT(s.now())).
		WHERE(table.Sessions.ID.EQ(UUID(sessionID)).AND(table.Sessions.RevokedOn.IS_NULL())))
	if err != nil {
		return fmt.Errorf("account: sign out: %w", err)
	}
	return nil
}
