package app

import (
	"agora/command/sso"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/config"
	"agora/internal/standins/oidcserver"
)

// SSOTestProvider is the test OpenID Provider of `agora dev
// --sso-test-provider` and the client it registered for this server.
type SSOTestProvider struct {
	*oidcserver.Provider
	ClientID, ClientSecret string
}

// StartSSOTestProvider runs the test provider on loopback (only in dev:
// config refuses it elsewhere), accepting any address at its login page,
// with a client whose redirect URI is this server's /callbacks/auth. An
// organization admin turns single sign-on on with its issuer and client
// (PUT /api/organizations/{id}/identity-client).
func StartSSOTestProvider(cfg config.Config) (*SSOTestProvider, error) {
	p, err := oidcserver.Start()
	if err != nil {
		return nil, err
	}
	p.AcceptAnyAddress()
	secret, _ := auth.NewToken()
	t := &SSOTestProvider{Provider: p, ClientID: "agora-dev", ClientSecret: secret}
	p.AddClient(oidcserver.Client{ID: t.ClientID, Secret: secret, RedirectURIs: []string{cfg.BaseURL() + sso.CallbackPath}})
	return t, nil
}
