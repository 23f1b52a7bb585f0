package sso

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"golang.org/x/oauth2"

	cmdaccount "agora/command/account"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
)

// Redeem is POST /sso/tokens/redeem: an access token that an organization's
// identity provider gave the person (in another of the organization's
// applications), traded for a session here.
type Redeem struct {
	AccessToken string
	// OrganizationID names the organization whose provider issued the
	// token; without it, a JWT access token's issuer names it.
	OrganizationID *uuid.UUID
	IP, UserAgent  string
}

// RedeemAccessToken asks the organization's provider who the token speaks
// for (its userinfo endpoint, which refuses a token it did not issue or
// that has expired) and opens a session for that verified address. The
// token is only ever sent to the one provider chosen: trying it at every
// organization's provider would hand one organization's token to others.
func (s *Service) RedeemAccessToken(ctx context.Context, in Redeem) (cmdaccount.Session, error) {
	if in.AccessToken == "" {
		return cmdaccount.Session{}, apperr.ErrAuthRequired
	}
	client, err := s.redeemClient(ctx, in)
	if err != nil {
		return cmdaccount.Session{}, err
	}
	provider, err := s.provider(ctx, client.Issuer)
	if err != nil {
		return cmdaccount.Session{}, ErrTokenInvalid.Wrap(err)
	}
	info, err := provider.UserInfo(s.ctx(ctx), oauth2.StaticTokenSource(&oauth2.Token{AccessToken: in.AccessToken, TokenType: "Bearer"}))
	if err != nil {
		return cmdaccount.Session{}, ErrTokenInvalid.Wrap(err)
	}
	if !info.EmailVerified {
		return cmdaccount.Session{}, ErrEmailNotVerified
	}
	return s.accounts.SignInFederated(ctx, cmdaccount.Federated{
		OrganizationID: client.OrganizationID, Email: info.Email, IP: in.IP, UserAgent: in.UserAgent,
	})
}

func (s *Service) redeemClient(ctx context.Context, in Redeem) (model.IdentityClients, error) {
	if in.OrganizationID != nil {
		return s.identityClient(ctx, s.db, *in.OrganizationID)
	}
	issuer := unverifiedIssuer(in.AccessToken)
	if issuer == "" {
		return model.IdentityClients{}, apperr.MissingParameters("organizationId")
	}
	rows, err := db.All[model.IdentityClients](ctx, s.db, SELECT(table.IdentityClients.AllColumns).FROM(table.IdentityClients).
		WHERE(table.IdentityClients.Issuer.EQ(String(issuer))).LIMIT(2))
	if err != nil {
		return model.IdentityClients{}, fmt.Errorf("sso: redeem: %w", err)
	}
	switch len(rows) {
	case 0:
		return model.IdentityClients{}, ErrTokenInvalid
	case 1:
		return rows[0], nil
	}
	// One provider serving several organizations: the caller says which.
	return model.IdentityClients{}, apperr.MissingParameters("organizationId")
}

// unverifiedIssuer reads the iss claim of a JWT without checking it: it
// only picks which provider to ask, and that provider does the checking.
func unverifiedIssuer(token string) string {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return ""
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return ""
	}
	var c struct {
		Iss string `json:"iss"`
	}
	if json.Unmarshal(payload, &c) != nil {
		return ""
	}
	return c.Iss
}
