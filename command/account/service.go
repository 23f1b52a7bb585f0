// Package account is the write side of accounts: sign-in and sign-out,
// password resets, registration from an invitation or confirmation token,
// joining an invited profile, editing one's own user, and merging their
// personalization.
package account

import (
	"context"
	"fmt"
	"strings"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	agoramail "agora/internal/adapters/mail"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/config"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/ratelimit"
)

// Service runs the account commands.
type Service struct {
	db      *pgxpool.Pool
	hasher  *auth.Hasher
	mail    agoramail.Sender
	cfg     config.AuthConfig
	limits  config.MailLimits
	baseURL string
	now     func() time.Time

	signInPerIP      *ratelimit.Limiter
	signInPerAccount *ratelimit.Limiter
	resetPerIP       *ratelimit.Limiter
	resetPerAccount  *ratelimit.Limiter

	// dummyHash is verified against when an address is unknown, so a
	// failed sign-in takes as long whether or not the account exists.
	dummyHash string
}

// New builds the service; baseURL is where e-mailed links point, limits
// bound the invitations it mails.
func New(d *db.DB, hasher *auth.Hasher, sender agoramail.Sender, cfg config.AuthConfig, limits config.MailLimits, baseURL string) (*Service, error) {
	if d == nil || d.Pool == nil || hasher == nil || sender == nil {
		return nil, fmt.Errorf("account.New: nil dependency")
	}
	dummy, err := hasher.Hash(context.Background(), "not-a-real-password")
	if err != nil {
		return nil, err
	}
	return &Service{
		db: d.Pool, hasher: hasher, mail: sender, cfg: cfg, limits: limits, baseURL: strings.TrimRight(baseURL, "/"), now: time.Now,
		signInPerIP:      ratelimit.New(cfg.SignInPerIPPerMinute, time.Minute),
		signInPerAccount: ratelimit.New(cfg.SignInPerAccountPerMinute, time.Minute),
		resetPerIP:       ratelimit.New(cfg.SignInPerIPPerMinute, time.Minute),
		resetPerAccount:  ratelimit.New(cfg.ResetPerAccountPerHour, time.Hour),
		dummyHash:        dummy,
	}, nil
}

// Errors of the account commands (catalogue codes of spec 000 §8, 002 §8,
// and ours where the spec is silent).
var (
	// ErrLogin is the one answer to a wrong address or password, so that
	// sign-in does not reveal which addresses have accounts.
	ErrLogin = apperr.New(apperr.Unauthorized, "loginAuthentication", "the email or password is not correct")
	// ErrTooMany is a rate-limited attempt; RetryAfter is set per call.
	ErrTooMany = apperr.New(apperr.TooMany, "tooManyRequests", "too many attempts; try again later")
	// ErrEmailTaken is a registration for an address that has an account.
	ErrEmailTaken = apperr.New(apperr.Conflict, "registrationCreatingExistingEmail", "an account with this email already exists")
)

func tooMany(retry time.Duration) error {
	e := *ErrTooMany
	e.RetryAfter = ratelimit.Seconds(retry)
	return &e
}

// Session is a signed-in session: the bearer token (shown once) and whose.
type Session struct {
	Token     string
	UserID    uuid.UUID
	Role      auth.Role
	ExpiresOn time.Time
}

func (s *Service) createSession(ctx context.Context, q db.Querier, u model.Users, ip, userAgent string) (Session, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return Session{}, err
	}
	token, hash := auth.NewToken()
	now := s.now()
	row := model.Sessions{
		ID: id, UserID: u.ID, TokenHash: hash, CreatedOn: now, ExpiresOn: now.Add(s.cfg.SessionTTL),
		IP: clip(ip, 64), UserAgent: clip(userAgent, 512),
	}
	if _, err := db.Exec(ctx, q, table.Sessions.INSERT(table.Sessions.MutableColumns.Except(table.Sessions.RevokedOn), table.Sessions.ID).
		MODEL(row)); err != nil {
		return Session{}, fmt.Errorf("account: create session: %w", err)
	}
	return Session{Token: token, UserID: u.ID, Role: auth.Role(u.Role), ExpiresOn: row.ExpiresOn}, nil
}

// revokeSessions ends every live session of a user except keep.
func (s *Service) revokeSessions(ctx context.Context, q db.Querier, userID uuid.UUID, keep *uuid.UUID) error {
	cond := table.Sessions.UserID.EQ(UUID(userID)).AND(table.Sessions.RevokedOn.IS_NULL())
	if keep != nil {
		cond = cond.AND(table.Sessions.ID.NOT_EQ(UUID(*keep)))
	}
	_, err := db.Exec(ctx, q, table.Sessions.UPDATE(table.Sessions.RevokedOn).SET(TimestampzT(s.now())).WHERE(cond))
	return err
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
