package main

import (
	"bytes"
	"context"
	"testing"
	"time"

	"agora/app/testenv"
	"agora/internal/plumbing/config"
	"agora/internal/plumbing/vapid"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// TestProbeAcceptsNothing replays the probe against a server with the
// product's default limits, and push on: every bad input is refused.
func TestProbeAcceptsNothing(t *testing.T) {
	keys, err := vapid.GenerateKeys()
	if err != nil {
		t.Fatal(err)
	}
	env := testenv.New(t, func(c *config.Config) {
		c.Push = config.PushConfig{PublicKey: keys.Public, PrivateKey: keys.Private, Subject: "mailto:ops@agora.test"}
		d := config.Default()
		c.Blobs.Dir = t.TempDir()
		c.Auth.SignInPerIPPerMinute = d.Auth.SignInPerIPPerMinute
		c.AI.SearchesPerAccountPerMinute = d.AI.SearchesPerAccountPerMinute
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var out bytes.Buffer
	r, err := Run(ctx, env.URL, testenv.Password, &out)
	t.Log("\n" + out.String())
	if err != nil {
		t.Fatal(err)
	}
	if r.Accepted > 0 {
		t.Errorf("the server accepted %d of %d bad inputs: %v", r.Accepted, r.Total, r.Names)
	}
}
