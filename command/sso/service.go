// Package sso is the write side of single sign-on: an organization's
// identity client (an OpenID Connect relying party registration at the
// organization's identity provider), sign-in through it with the
// authorization code flow (PKCE, state and nonce kept server-side, single
// use, short-lived), and the exchange of the provider's access token for a
// session. Accounts are linked and made by command/account, which also
// opens the session, so a federated session is the one POST /sessions
// opens.
package sso

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/jackc/pgx/v5/pgxpool"

	cmdaccount "agora/command/account"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/outbound"
	"agora/internal/plumbing/ratelimit"
)

// FlowTTL is how long a started sign-in may take at the identity provider.
const FlowTTL = 10 * time.Minute

// CallbackPath is where the provider sends the browser back (the web app's
// /callbacks/auth, which finishes the flow with POST /api/sso/callback).
const CallbackPath = "/callbacks/auth"

// Service runs the single sign-on commands.
type Service struct {
	db          *pgxpool.Pool
	accounts    *cmdaccount.Service
	http        *http.Client
	redirectURL string
	now         func() time.Time
	// guard checks every address the provider's discovery document, its
	// redirects and the endpoints it names lead to; an issuer in plain
	// http is accepted only on an address it allows exactly (agora dev's
	// test provider), so that an admin cannot point the server at
	// services of its own network.
	guard *outbound.Guard

	startPerIP      *ratelimit.Limiter
	startPerAddress *ratelimit.Limiter
	// providers are the issuers' discovered endpoints, reused for
	// discoveryTTL.
	providers *discoveries
}

// New builds the service. publicURL is the browser-facing base URL the
// provider redirects to; perMinute bounds sign-in starts per IP address and
// per e-mail address, as password sign-ins are; every fetch of a provider's
// (discovery, token, keys, user info) connects only where guard permits.
func New(d *db.DB, accounts *cmdaccount.Service, publicURL string, perMinute int, guard *outbound.Guard) (*Service, error) {
	if d == nil || d.Pool == nil || accounts == nil {
		return nil, fmt.Errorf("sso.New: nil dependency")
	}
	s := &Service{
		db: d.Pool, accounts: accounts, http: guard.Client(outbound.Options{Timeout: 10 * time.Second, MaxRedirects: 5}),
		redirectURL: strings.TrimRight(publicURL, "/") + CallbackPath, now: time.Now, guard: guard,
		startPerIP: ratelimit.New(perMinute, time.Minute), startPerAddress: ratelimit.New(perMinute, time.Minute),
	}
	s.providers = newDiscoveries(discoveryTTL, time.Now, func(ctx context.Context, issuer string) (*oidc.Provider, error) {
		return oidc.NewProvider(s.ctx(ctx), issuer)
	})
	return s, nil
}

// Errors of single sign-on (catalogue codes of ours).
var (
	// ErrUnavailable is an address no organization with single sign-on
	// holds. It is the one answer whether or not the address has an account
	// or a profile elsewhere.
	ErrUnavailable = apperr.New(apperr.NotFound, "ssoUnavailable", "single sign-on is not available for this address; sign in with your password")
	// ErrStateInvalid is an unknown or already used sign-in.
	ErrStateInvalid = apperr.New(apperr.BadInput, "ssoStateInvalid", "this sign-in is not valid; start again")
	// ErrFlowExpired is a sign-in that took longer than FlowTTL.
	ErrFlowExpired = apperr.New(apperr.BadInput, "ssoFlowExpired", "this sign-in has expired; start again")
	// ErrTokenInvalid is a code, ID token or access token the provider or
	// its keys did not vouch for (wrong issuer, audience, nonce, signature).
	ErrTokenInvalid = apperr.New(apperr.Unauthorized, "ssoTokenInvalid", "the identity provider's answer could not be verified")
	// ErrEmailNotVerified is a provider that does not vouch for the address.
	ErrEmailNotVerified = apperr.New(apperr.Forbidden, "ssoEmailNotVerified", "the identity provider has not verified this e-mail address")
)

// provider is an issuer's endpoints and keys, discovered at most
// discoveryTTL ago.
func (s *Service) provider(ctx context.Context, issuer string) (*oidc.Provider, error) {
	return s.providers.get(ctx, issuer)
}

func (s *Service) ctx(ctx context.Context) context.Context { return oidc.ClientContext(ctx, s.http) }
