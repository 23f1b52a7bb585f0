package account

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/jackc/pgx/v5"

	agoramail "agora/internal/adapters/mail"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
)

// RequestPasswordReset is POST /tokens/passwordReset.
type RequestPasswordReset struct {
	Email string
	IP    string
}

// RequestPasswordReset mails a single-use reset link when the address has an
// account. The caller gets the same answer either way; the limits count
// requests per address whether or not it exists, so they reveal nothing.
func (s *Service) RequestPasswordReset(ctx context.Context, in RequestPasswordReset) error {
	in.Email = strings.TrimSpace(in.Email)
	if in.Email == "" {
		return apperr.MissingParameters("email")
	}
	if !auth.ValidEmail(in.Email) {
		return apperr.Invalid(map[string]string{"email": "This is not a valid email."})
	}
	if ok, retry := s.resetPerIP.Allow(in.IP); !ok {
		return tooMany(retry)
	}
	if ok, retry := s.resetPerAccount.Allow(auth.EmailKey(in.Email)); !ok {
		return tooMany(retry)
	}
	u, err := db.One[model.Users](ctx, s.db, SELECT(table.Users.AllColumns).FROM(table.Users).
		WHERE(table.Users.EmailKey.EQ(String(auth.EmailKey(in.Email)))))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("account: reset: %w", err)
	}
	var token string
	err = db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		// Only the newest link works: earlier unused ones are retired.
		if _, err := db.Exec(ctx, tx, table.Tokens.UPDATE(table.Tokens.UsedOn).SET(TimestampzT(s.now())).
			WHERE(table.Tokens.UserID.EQ(UUID(u.ID)).
				AND(table.Tokens.Kind.EQ(String("passwordReset"))).
				AND(table.Tokens.UsedOn.IS_NULL()))); err != nil {
			return err
		}
		uid := u.ID
		token, err = s.issueToken(ctx, tx, model.Tokens{
			Kind: "passwordReset", UserID: &uid, Email: u.Email, ExpiresOn: s.now().Add(s.cfg.PasswordResetTTL),
		})
		return err
	})
	if err != nil {
		return fmt.Errorf("account: reset: %w", err)
	}
	link := s.baseURL + "/reset-password?token=" + url.QueryEscape(token)
	return s.mail.Send(ctx, agoramail.Message{
		To:      u.Email,
		Subject: "Reset your Agora password",
		Body: fmt.Sprintf("Hello %s,\n\nSomeone asked to reset the password of your Agora account. "+
			"If it was you, choose a new password here (the link works once, for %s):\n\n%s\n\n"+
			"If it was not you, ignore this message; your password stays as it is.\n", u.FirstName, humanDuration(s.cfg.PasswordResetTTL), link),
	})
}

// ResetPassword is POST /tokens/passwordReset/{token}/use.
type ResetPassword struct {
	Token    string
	Password string
}

// ResetPassword sets a new password with a reset token, uses the token up
// and signs the account out everywhere.
func (s *Service) ResetPassword(ctx context.Context, in ResetPassword) error {
	if in.Password == "" {
		return apperr.MissingParameters("password")
	}
	if msg := auth.CheckPassword(in.Password); msg != "" {
		return apperr.Invalid(map[string]string{"password": msg})
	}
	hash, err := s.hasher.Hash(ctx, in.Password)
	if err != nil {
		return err
	}
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		tok, err := s.lockToken(ctx, tx, in.Token, "passwordReset")
		if err != nil {
			return err
		}
		if tok.UserID == nil {
			return auth.ErrOneTimeTokenInvalid
		}
		if _, err := db.Exec(ctx, tx, table.Users.UPDATE(table.Users.PasswordHash, table.Users.UpdatedOn).
			SET(String(hash), TimestampzT(s.now())).
			WHERE(table.Users.ID.EQ(UUID(*tok.UserID)))); err != nil {
			return err
		}
		if err := s.markUsed(ctx, tx, tok.ID); err != nil {
			return err
		}
		return s.revokeSessions(ctx, tx, *tok.UserID, nil)
	})
}

// humanDuration writes a TTL the way a mail reader expects ("1 hour").
func humanDuration(d time.Duration) string {
	switch {
	case d%(24*time.Hour) == 0:
		return plural(int(d/(24*time.Hour)), "day")
	case d%time.Hour == 0:
		return plural(int(d/time.Hour), "hour")
	default:
		return plural(int(d.Round(time.Minute)/time.Minute), "minute")
	}
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}
