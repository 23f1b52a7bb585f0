package oidcserver

import (
	"context"
	"crypto/rsa"
	"errors"
	"strings"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/google/uuid"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// storage is op.Storage in memory: only what the authorization code flow
// with PKCE, the userinfo endpoint and the keys need.
type storage struct {
	mu             sync.Mutex
	key            *rsa.PrivateKey
	keyID          string
	requests       map[string]*authRequest
	codes          map[string]string // code → request id
	tokens         map[string]*token
	clients        map[string]*Client
	users          map[string]*User // by lower-case e-mail
	issuerOverride string
	anyAddress     bool
	// audienceOverride is the audience of the ID tokens (see SetIDTokenAudience).
	audienceOverride []string
}

type token struct {
	ID, ClientID, Subject string
	Expiration            time.Time
}

var errNotFound = errors.New("oidcserver: not found")

func (s *storage) tokenIssuer() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.issuerOverride
}

func (s *storage) authenticate(id, email string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.requests[id]
	if !ok {
		return errors.New("unknown sign-in request")
	}
	key := strings.ToLower(strings.TrimSpace(email))
	u, ok := s.users[key]
	if !ok && s.anyAddress && key != "" {
		u, ok = &User{Subject: uuid.NewString(), Email: strings.TrimSpace(email), EmailVerified: true}, true
		s.users[key] = u
	}
	if !ok {
		return errors.New("no such user at this identity provider")
	}
	r.Subject, r.done, r.authTime = u.Subject, true, time.Now()
	return nil
}

func (s *storage) userBySubject(sub string) *User {
	for _, u := range s.users {
		if u.Subject == sub {
			return u
		}
	}
	return nil
}

func (s *storage) CreateAuthRequest(_ context.Context, r *oidc.AuthRequest, _ string) (op.AuthRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req := &authRequest{
		ID: uuid.NewString(), ClientID: r.ClientID, RedirectURI: r.RedirectURI, State: r.State, Nonce: r.Nonce,
		Scopes: r.Scopes, ResponseType: r.ResponseType, ResponseMode: r.ResponseMode,
	}
	if r.CodeChallenge != "" {
		req.Challenge = &oidc.CodeChallenge{Challenge: r.CodeChallenge, Method: r.CodeChallengeMethod}
	}
	if c, ok := s.clients[r.ClientID]; ok {
		req.aud = (&client{c}).audience()
	}
	s.requests[req.ID] = req
	return req, nil
}

func (s *storage) AuthRequestByID(_ context.Context, id string) (op.AuthRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.requests[id]; ok {
		return r, nil
	}
	return nil, errNotFound
}

func (s *storage) AuthRequestByCode(ctx context.Context, code string) (op.AuthRequest, error) {
	s.mu.Lock()
	id, ok := s.codes[code]
	s.mu.Unlock()
	if !ok {
		return nil, errNotFound
	}
	return s.AuthRequestByID(ctx, id)
}

func (s *storage) SaveAuthCode(_ context.Context, id, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.codes[code] = id
	return nil
}

func (s *storage) DeleteAuthRequest(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.requests, id)
	for code, rid := range s.codes {
		if rid == id {
			delete(s.codes, code)
		}
	}
	return nil
}

func (s *storage) CreateAccessToken(_ context.Context, r op.TokenRequest) (string, time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := &token{ID: uuid.NewString(), Subject: r.GetSubject(), Expiration: time.Now().Add(5 * time.Minute)}
	if a, ok := r.(*authRequest); ok {
		t.ClientID = a.ClientID
	}
	s.tokens[t.ID] = t
	return t.ID, t.Expiration, nil
}

func (s *storage) CreateAccessAndRefreshTokens(context.Context, op.TokenRequest, string) (string, string, time.Time, error) {
	return "", "", time.Time{}, errors.New("oidcserver: no refresh tokens")
}

func (s *storage) TokenRequestByRefreshToken(context.Context, string) (op.RefreshTokenRequest, error) {
	return nil, op.ErrInvalidRefreshToken
}

func (s *storage) TerminateSession(context.Context, string, string) error { return nil }

func (s *storage) RevokeToken(_ context.Context, id, _, _ string) *oidc.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.tokens, id)
	return nil
}

func (s *storage) GetRefreshTokenInfo(context.Context, string, string) (string, string, error) {
	return "", "", op.ErrInvalidRefreshToken
}

type signingKey struct{ s *storage }

func (k signingKey) SignatureAlgorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k signingKey) Key() any                                    { return k.s.key }
func (k signingKey) ID() string                                  { return k.s.keyID }

type publicKey struct{ s *storage }

func (k publicKey) ID() string                         { return k.s.keyID }
func (k publicKey) Algorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k publicKey) Use() string                        { return "sig" }
func (k publicKey) Key() any                           { return &k.s.key.PublicKey }

func (s *storage) SigningKey(context.Context) (op.SigningKey, error) { return signingKey{s}, nil }
func (s *storage) SignatureAlgorithms(context.Context) ([]jose.SignatureAlgorithm, error) {
	return []jose.SignatureAlgorithm{jose.RS256}, nil
}
func (s *storage) KeySet(context.Context) ([]op.Key, error) { return []op.Key{publicKey{s}}, nil }

func (s *storage) GetClientByClientID(_ context.Context, id string) (op.Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.clients[id]; ok {
		return &client{c}, nil
	}
	return nil, errNotFound
}

func (s *storage) AuthorizeClientIDSecret(_ context.Context, id, secret string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.clients[id]; ok && c.Secret == secret {
		return nil
	}
	return errors.New("oidcserver: bad client credentials")
}

func (s *storage) fill(info *oidc.UserInfo, subject string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.userBySubject(subject)
	if u == nil {
		return errNotFound
	}
	info.Subject = u.Subject
	info.Email = u.Email
	info.EmailVerified = oidc.Bool(u.EmailVerified)
	info.GivenName, info.FamilyName = u.GivenName, u.FamilyName
	return nil
}

func (s *storage) SetUserinfoFromScopes(_ context.Context, info *oidc.UserInfo, userID, _ string, _ []string) error {
	return s.fill(info, userID)
}

func (s *storage) SetUserinfoFromToken(_ context.Context, info *oidc.UserInfo, tokenID, subject, _ string) error {
	s.mu.Lock()
	t, ok := s.tokens[tokenID]
	s.mu.Unlock()
	if !ok || t.Subject != subject || time.Now().After(t.Expiration) {
		return errors.New("oidcserver: token not valid")
	}
	return s.fill(info, subject)
}

func (s *storage) SetIntrospectionFromToken(context.Context, *oidc.IntrospectionResponse, string, string, string) error {
	return errors.New("oidcserver: no introspection")
}

func (s *storage) GetPrivateClaimsFromScopes(context.Context, string, string, []string) (map[string]any, error) {
	return nil, nil
}

func (s *storage) GetKeyByIDAndClientID(context.Context, string, string) (*jose.JSONWebKey, error) {
	return nil, errNotFound
}

func (s *storage) ValidateJWTProfileScopes(context.Context, string, []string) ([]string, error) {
	return nil, errors.New("oidcserver: no JWT profile")
}

func (s *storage) Health(context.Context) error { return nil }

// authRequest is one authorization request, then its code's grant.
type authRequest struct {
	ID, ClientID, RedirectURI, State, Nonce, Subject string
	Scopes                                           []string
	ResponseType                                     oidc.ResponseType
	ResponseMode                                     oidc.ResponseMode
	Challenge                                        *oidc.CodeChallenge
	aud                                              []string
	done                                             bool
	authTime                                         time.Time
}

func (a *authRequest) GetID() string         { return a.ID }
func (a *authRequest) GetACR() string        { return "" }
func (a *authRequest) GetAMR() []string      { return []string{"pwd"} }
func (a *authRequest) GetAudience() []string { return a.aud }
func (a *authRequest) GetAuthTime() time.Time {
	return a.authTime
}
func (a *authRequest) GetClientID() string                   { return a.ClientID }
func (a *authRequest) GetCodeChallenge() *oidc.CodeChallenge { return a.Challenge }
func (a *authRequest) GetNonce() string                      { return a.Nonce }
func (a *authRequest) GetRedirectURI() string                { return a.RedirectURI }
func (a *authRequest) GetResponseType() oidc.ResponseType    { return a.ResponseType }
func (a *authRequest) GetResponseMode() oidc.ResponseMode    { return a.ResponseMode }
func (a *authRequest) GetScopes() []string                   { return a.Scopes }
func (a *authRequest) GetState() string                      { return a.State }
func (a *authRequest) GetSubject() string                    { return a.Subject }
func (a *authRequest) Done() bool                            { return a.done }
func (a *authRequest) SetCurrentScopes(scopes []string)      { a.Scopes = scopes }
func (a *authRequest) audience() []string                    { return a.aud }

// client adapts a Client to op.Client: a confidential web application
// with the code flow, secrets posted or sent as basic auth, JWT access
// tokens (so that a relying party can tell which issuer made one).
type client struct{ c *Client }

func (c *client) audience() []string                  { return []string{c.c.ID} }
func (c *client) GetID() string                       { return c.c.ID }
func (c *client) RedirectURIs() []string              { return c.c.RedirectURIs }
func (c *client) PostLogoutRedirectURIs() []string    { return nil }
func (c *client) ApplicationType() op.ApplicationType { return op.ApplicationTypeWeb }
func (c *client) AuthMethod() oidc.AuthMethod         { return oidc.AuthMethodBasic }
func (c *client) ResponseTypes() []oidc.ResponseType {
	return []oidc.ResponseType{oidc.ResponseTypeCode}
}
func (c *client) GrantTypes() []oidc.GrantType {
	return []oidc.GrantType{oidc.GrantTypeCode}
}
func (c *client) LoginURL(id string) string           { return "/login?authRequestID=" + id }
func (c *client) AccessTokenType() op.AccessTokenType { return op.AccessTokenTypeJWT }
func (c *client) IDTokenLifetime() time.Duration      { return 5 * time.Minute }
func (c *client) DevMode() bool                       { return true }
func (c *client) RestrictAdditionalIdTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}
func (c *client) RestrictAdditionalAccessTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}
func (c *client) IsScopeAllowed(string) bool           { return false }
func (c *client) IDTokenUserinfoClaimsAssertion() bool { return true }
func (c *client) ClockSkew() time.Duration             { return 0 }
