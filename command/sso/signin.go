package sso

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/coreos/go-oidc/v3/oidc"
	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"golang.org/x/oauth2"

	cmdaccount "agora/command/account"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/ratelimit"
)

// Start is POST /sso/start: the person gives their work address.
type Start struct {
	Email string
	// OrganizationID picks one when the address is a member of several
	// organizations with single sign-on.
	OrganizationID *uuid.UUID
	// Redirect is where the app goes after signing in (an app path).
	Redirect string
	IP       string
}

// Organization is an organization to sign in through.
type Organization struct {
	ID   uuid.UUID `json:"id"`
	Name string    `json:"name"`
}

// Started is the answer to Start: the provider's URL to send the browser
// to, or, when the address is in several organizations with single sign-on
// and none was chosen, those organizations.
type Started struct {
	AuthorizationURL string         `json:"authorizationUrl,omitempty"`
	Organizations    []Organization `json:"organizations,omitempty"`
}

// Start finds the organizations with single sign-on whose people include
// the address and starts the code flow at the chosen one's provider. Which
// addresses an organization holds is what discovery by address has to
// reveal; it never says whether the address has an account, and it is
// limited per IP and per address as sign-in is.
func (s *Service) Start(ctx context.Context, in Start) (Started, error) {
	in.Email = strings.TrimSpace(in.Email)
	if in.Email == "" {
		return Started{}, apperr.MissingParameters("email")
	}
	if !auth.ValidEmail(in.Email) {
		return Started{}, apperr.Invalid(map[string]string{"email": "This is not a valid email."})
	}
	if ok, retry := s.startPerIP.Allow(in.IP); !ok {
		return Started{}, tooMany(retry)
	}
	if ok, retry := s.startPerAddress.Allow(auth.EmailKey(in.Email)); !ok {
		return Started{}, tooMany(retry)
	}
	o, p, ic := table.Organizations, table.Profiles, table.IdentityClients
	stmt := SELECT(o.ID, o.Name).
		FROM(o.INNER_JOIN(ic, ic.OrganizationID.EQ(o.ID)).INNER_JOIN(p, p.OrganizationID.EQ(o.ID))).
		WHERE(p.EmailKey.EQ(String(auth.EmailKey(in.Email)))).
		ORDER_BY(o.Name, o.ID)
	orgs, err := db.All[model.Organizations](ctx, s.db, stmt)
	if err != nil {
		return Started{}, fmt.Errorf("sso: start: %w", err)
	}
	var chosen *model.Organizations
	for i := range orgs {
		if in.OrganizationID == nil || orgs[i].ID == *in.OrganizationID {
			if chosen != nil {
				out := Started{}
				for _, org := range orgs {
					out.Organizations = append(out.Organizations, Organization{ID: org.ID, Name: org.Name})
				}
				return out, nil
			}
			chosen = &orgs[i]
		}
	}
	if chosen == nil {
		return Started{}, ErrUnavailable
	}
	client, err := s.identityClient(ctx, s.db, chosen.ID)
	if err != nil {
		return Started{}, err
	}
	provider, err := s.provider(ctx, client.Issuer)
	if err != nil {
		return Started{}, apperr.New(apperr.Unprocessable, "ssoProviderUnavailable", "the organization's identity provider does not answer").Wrap(err)
	}
	state, stateHash := auth.NewToken()
	nonce, _ := auth.NewToken()
	verifier := oauth2.GenerateVerifier()
	id, err := uuid.NewV7()
	if err != nil {
		return Started{}, err
	}
	now := s.now()
	f := table.SsoFlows
	err = db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		// Flows nobody finished are of no use once expired.
		if _, err := db.Exec(ctx, tx, f.DELETE().WHERE(f.ExpiresOn.LT(TimestampzT(now.Add(-FlowTTL))))); err != nil {
			return err
		}
		_, err := db.Exec(ctx, tx, f.INSERT(f.AllColumns.Except(f.UsedOn)).MODEL(model.SsoFlows{
			ID: id, StateHash: stateHash, OrganizationID: chosen.ID, CodeVerifier: verifier, Nonce: nonce,
			Redirect: appPath(in.Redirect), CreatedOn: now, ExpiresOn: now.Add(FlowTTL),
		}))
		return err
	})
	if err != nil {
		return Started{}, fmt.Errorf("sso: start: %w", err)
	}
	url := s.oauth2(provider, client).AuthCodeURL(state, oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier))
	return Started{AuthorizationURL: url}, nil
}

func (s *Service) oauth2(p *oidc.Provider, c model.IdentityClients) *oauth2.Config {
	return &oauth2.Config{
		ClientID: c.ClientID, ClientSecret: c.ClientSecret, Endpoint: p.Endpoint(), RedirectURL: s.redirectURL,
		Scopes: []string{oidc.ScopeOpenID, "email", "profile"},
	}
}

// appPath keeps a redirect target only when it is a path of this app, so
// that a crafted link cannot send a freshly signed-in person elsewhere.
// Browsers drop tabs and newlines from a URL and read a backslash as a
// slash, so "/\t/evil.example" and "/\\evil.example" are another site's
// "//evil.example": a target with any control character, white space or
// backslash is dropped whole, not cleaned. web/src/lib/redirect.ts's
// safeRedirect is the same rule in the web app.
func appPath(p string) string {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || len(p) > 2048 ||
		strings.ContainsFunc(p, func(r rune) bool { return r == '\\' || unicode.IsControl(r) || unicode.IsSpace(r) }) {
		return ""
	}
	if u, err := url.Parse(p); err != nil || u.Scheme != "" || u.Host != "" {
		return ""
	}
	return p
}

// Complete is POST /sso/callback: what the provider sent back.
type Complete struct {
	State, Code   string
	IP, UserAgent string
}

// Completed is a finished sign-in: the session, and where to go.
type Completed struct {
	Session  cmdaccount.Session
	Redirect string
}

// Complete finishes a sign-in: the flow is used up first (a replayed or
// failed callback cannot be tried again), then the code is exchanged with
// the PKCE verifier, and the ID token is verified (signature, issuer,
// audience = our client, expiry, nonce) before the provider's verified
// address opens a session.
func (s *Service) Complete(ctx context.Context, in Complete) (Completed, error) {
	var missing []string
	if in.State == "" {
		missing = append(missing, "state")
	}
	if in.Code == "" {
		missing = append(missing, "code")
	}
	if len(missing) > 0 {
		return Completed{}, apperr.MissingParameters(missing...)
	}
	if len(in.State) > 256 || len(in.Code) > 4096 {
		return Completed{}, ErrStateInvalid
	}
	flow, err := s.useFlow(ctx, in.State)
	if err != nil {
		return Completed{}, err
	}
	client, err := s.identityClient(ctx, s.db, flow.OrganizationID)
	if err != nil {
		return Completed{}, err
	}
	provider, err := s.provider(ctx, client.Issuer)
	if err != nil {
		return Completed{}, ErrTokenInvalid.Wrap(err)
	}
	tok, err := s.oauth2(provider, client).Exchange(s.ctx(ctx), in.Code, oauth2.VerifierOption(flow.CodeVerifier))
	if err != nil {
		return Completed{}, ErrTokenInvalid.Wrap(err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return Completed{}, ErrTokenInvalid
	}
	idt, err := provider.Verifier(&oidc.Config{ClientID: client.ClientID}).Verify(s.ctx(ctx), raw)
	if err != nil {
		return Completed{}, ErrTokenInvalid.Wrap(err)
	}
	if idt.Nonce != flow.Nonce {
		return Completed{}, ErrTokenInvalid
	}
	var claims struct {
		Email         string `json:"email"`
		EmailVerified *bool  `json:"email_verified"`
	}
	if err := idt.Claims(&claims); err != nil {
		return Completed{}, ErrTokenInvalid.Wrap(err)
	}
	if claims.EmailVerified == nil || !*claims.EmailVerified {
		return Completed{}, ErrEmailNotVerified
	}
	sess, err := s.accounts.SignInFederated(ctx, cmdaccount.Federated{
		OrganizationID: flow.OrganizationID, Email: claims.Email, IP: in.IP, UserAgent: in.UserAgent,
	})
	if err != nil {
		return Completed{}, err
	}
	return Completed{Session: sess, Redirect: flow.Redirect}, nil
}

// useFlow marks the state's flow used, in its own transaction, and returns it.
func (s *Service) useFlow(ctx context.Context, state string) (model.SsoFlows, error) {
	f := table.SsoFlows
	var flow model.SsoFlows
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		var err error
		flow, err = db.One[model.SsoFlows](ctx, tx, SELECT(f.AllColumns).FROM(f).
			WHERE(f.StateHash.EQ(Bytea(auth.HashToken(state)))).FOR(UPDATE()))
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrStateInvalid
		}
		if err != nil {
			return err
		}
		if flow.UsedOn != nil {
			return ErrStateInvalid
		}
		now := s.now()
		if !now.Before(flow.ExpiresOn) {
			return ErrFlowExpired
		}
		_, err = db.Exec(ctx, tx, f.UPDATE(f.UsedOn).SET(TimestampzT(now)).WHERE(f.ID.EQ(UUID(flow.ID))))
		return err
	})
	return flow, err
}

func tooMany(retry time.Duration) error {
	e := *cmdaccount.ErrTooMany
	e.RetryAfter = ratelimit.Seconds(retry)
	return &e
}
