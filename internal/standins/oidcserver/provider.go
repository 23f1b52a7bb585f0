// Package oidcserver is a real OpenID Provider (zitadel/oidc's pkg/op) over
// an in-memory storage, served on loopback: the identity provider that the
// single sign-on tests, and `agora dev --sso-test-provider`, sign in
// through. Its login page asks only for the e-mail of one of its users (no
// password): it stands in for an organization's IdP, it is not one.
package oidcserver

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/google/uuid"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// User is a person the provider can sign in.
type User struct {
	Subject       string
	Email         string
	EmailVerified bool
	GivenName     string
	FamilyName    string
}

// Client is a relying party registered at the provider.
type Client struct {
	ID, Secret   string
	RedirectURIs []string
}

// Provider is a running OpenID Provider.
type Provider struct {
	// Issuer is the provider's issuer URL (http://127.0.0.1:port).
	Issuer string
	st     *storage
	srv    *http.Server
	ln     net.Listener
	// discoveries counts the requests for the discovery document.
	discoveries atomic.Int64
}

// Addr is the loopback address the provider listens on, for the outbound
// guard to allow exactly.
func (p *Provider) Addr() netip.AddrPort { return netip.MustParseAddrPort(p.ln.Addr().String()) }

// Start serves a provider on a free loopback port; it never listens
// anywhere else.
func Start() (*Provider, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	issuer := "http://" + ln.Addr().String()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		ln.Close()
		return nil, err
	}
	st := &storage{
		key: key, keyID: uuid.NewString(), requests: map[string]*authRequest{}, codes: map[string]string{},
		tokens: map[string]*token{}, clients: map[string]*Client{}, users: map[string]*User{},
	}
	p := &Provider{Issuer: issuer, st: st, ln: ln}
	cfg := &op.Config{CryptoKey: sha256.Sum256([]byte(st.keyID)), CodeMethodS256: true, AuthMethodPost: true}
	issuerFn := func(bool) (op.IssuerFromRequest, error) {
		return func(r *http.Request) string {
			// A test may make the token endpoint sign for another issuer.
			if o := st.tokenIssuer(); o != "" && r != nil && strings.HasPrefix(r.URL.Path, "/oauth/token") {
				return o
			}
			return issuer
		}, nil
	}
	provider, err := op.NewProvider(cfg, st, issuerFn, op.WithAllowInsecure())
	if err != nil {
		ln.Close()
		return nil, err
	}
	callback := op.AuthCallbackURL(provider)
	mux := http.NewServeMux()
	mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) { p.login(w, r, callback) })
	mux.Handle("/oauth/token", p.rewriteAudience(provider))
	mux.Handle("/.well-known/openid-configuration", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.discoveries.Add(1)
		provider.ServeHTTP(w, r)
	}))
	mux.Handle("/", provider)
	p.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

// Close stops the provider.
func (p *Provider) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return p.srv.Shutdown(ctx)
}

// Discoveries is how many times the discovery document was asked for.
func (p *Provider) Discoveries() int { return int(p.discoveries.Load()) }

// AddClient registers a relying party.
func (p *Provider) AddClient(c Client) {
	p.st.mu.Lock()
	defer p.st.mu.Unlock()
	p.st.clients[c.ID] = &c
}

// AddUser adds a person who can sign in; the subject defaults to a new id.
func (p *Provider) AddUser(u User) User {
	if u.Subject == "" {
		u.Subject = uuid.NewString()
	}
	p.st.mu.Lock()
	defer p.st.mu.Unlock()
	p.st.users[strings.ToLower(u.Email)] = &u
	return u
}

// AcceptAnyAddress makes the login page sign in any address it is given, as
// a verified user made on the spot: for `agora dev`, where people try
// single sign-on with the addresses of their own demo data.
func (p *Provider) AcceptAnyAddress() {
	p.st.mu.Lock()
	defer p.st.mu.Unlock()
	p.st.anyAddress = true
}

// SetTokenIssuer makes the token endpoint sign tokens as issuer ("" undoes
// it): an ID token from the right keys that names the wrong issuer.
func (p *Provider) SetTokenIssuer(issuer string) {
	p.st.mu.Lock()
	defer p.st.mu.Unlock()
	p.st.issuerOverride = issuer
}

// SetIDTokenAudience makes the token endpoint answer ID tokens, signed with
// the provider's key, for audience instead of the client (nil undoes it): a
// token meant for another application.
func (p *Provider) SetIDTokenAudience(audience []string) {
	p.st.mu.Lock()
	defer p.st.mu.Unlock()
	p.st.audienceOverride = audience
}

func (p *Provider) rewriteAudience(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.st.mu.Lock()
		aud := p.st.audienceOverride
		p.st.mu.Unlock()
		if aud == nil {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		var body map[string]any
		if json.Unmarshal(rec.Body.Bytes(), &body) == nil {
			if raw, ok := body["id_token"].(string); ok {
				if parts := strings.Split(raw, "."); len(parts) == 3 {
					var claims map[string]any
					if b, err := base64.RawURLEncoding.DecodeString(parts[1]); err == nil && json.Unmarshal(b, &claims) == nil {
						claims["aud"], claims["azp"] = aud, aud[0]
						if signed, err := p.sign(claims); err == nil {
							body["id_token"] = signed
						}
					}
				}
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rec.Code)
		_ = json.NewEncoder(w).Encode(body)
	})
}

func (p *Provider) sign(claims map[string]any) (string, error) {
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: p.st.key, KeyID: p.st.keyID}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", err
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	obj, err := signer.Sign(payload)
	if err != nil {
		return "", err
	}
	return obj.CompactSerialize()
}

// IssueAccessToken gives user an access token for client, as the provider
// would after a sign-in in another application of the organization.
func (p *Provider) IssueAccessToken(ctx context.Context, clientID, email string) (string, error) {
	p.st.mu.Lock()
	u, ok := p.st.users[strings.ToLower(email)]
	p.st.mu.Unlock()
	if !ok {
		return "", errors.New("oidcserver: unknown user")
	}
	req := &authRequest{ClientID: clientID, Subject: u.Subject, Scopes: []string{oidc.ScopeOpenID, oidc.ScopeEmail, oidc.ScopeProfile}, done: true, authTime: time.Now()}
	id, exp, err := p.st.CreateAccessToken(ctx, req)
	if err != nil {
		return "", err
	}
	c, err := p.st.GetClientByClientID(ctx, clientID)
	if err != nil {
		return "", err
	}
	req.aud = c.(*client).audience()
	return op.CreateJWT(ctx, p.Issuer, req, exp, id, c, p.st)
}

// login is the provider's sign-in page: the e-mail of a known user signs
// them in and returns to the relying party.
func (p *Provider) login(w http.ResponseWriter, r *http.Request, callback func(context.Context, string) string) {
	id := r.FormValue("authRequestID")
	if r.Method == http.MethodPost {
		if err := p.st.authenticate(id, r.FormValue("email")); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		http.Redirect(w, r, callback(r.Context(), id), http.StatusFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html><html><head><title>Test identity provider</title></head><body>
<h1>Test identity provider</h1>
<form method="post" action="/login"><input type="hidden" name="authRequestID" value="%s">
<label>E-mail <input name="email" type="email" autocomplete="off"></label>
<button type="submit">Sign in at the identity provider</button></form></body></html>`, html.EscapeString(id))
}
