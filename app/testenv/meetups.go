package testenv

import (
	"testing"

	"agora/app"
	"agora/internal/adapters/sfu"
	"agora/internal/plumbing/config"
)

// SFUKey and SFUSecret are the key pair of Meetups' LiveKit client: tests
// verify the join tokens and sign webhooks with them.
const (
	SFUKey    = "testkey"
	SFUSecret = "test-secret-of-at-least-thirty-two-characters"
)

// Meetups starts an API server whose Meet Ups sign tokens with SFUKey and
// SFUSecret for a LiveKit address nobody listens at: tokens and webhooks
// need only the key pair, and closing rooms that cannot be reached is
// logged, not an error.
func Meetups(t testing.TB, options ...func(*config.Config)) *Env {
	t.Helper()
	c, err := sfu.New(sfu.Config{URL: "ws://127.0.0.1:9", APIKey: SFUKey, APISecret: SFUSecret})
	if err != nil {
		t.Fatalf("testenv: sfu: %v", err)
	}
	return serve(t, []app.APIOption{app.WithSFU(c)}, options)
}
