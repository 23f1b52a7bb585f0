package testenv

import (
	"context"
	"io"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"agora/internal/plumbing/config"
	"agora/internal/standins/childproc"
	"agora/internal/standins/stripemock"
)

// One stripe-mock per test binary, started by the first API server that
// needs one (a test that sets no STRIPE_SECRET_KEY of its own) and stopped
// by Main, as agora dev runs one. Its servers share it and the webhook
// secret, with which a test signs the events it sends (Env.Config.Stripe).
var (
	stripeServer *stripemock.Server
	stripeDir    string
	stripeSecret string
	stripeErr    error
	stripeOnce   sync.Once
)

func startStripe() {
	stripeDir, stripeErr = os.MkdirTemp("", "agora-test-stripe-")
	if stripeErr != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stripeSecret = "whsec_" + childproc.RandomHex(24)
	stripeServer, stripeErr = stripemock.Start(ctx, stripeDir, slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// stopStripe stops the shared stripe-mock, if one was started.
func stopStripe() {
	if stripeServer != nil {
		_ = stripeServer.Close()
	}
	if stripeDir != "" {
		_ = os.RemoveAll(stripeDir)
	}
}

// sharedStripe is the configuration of the test binary's stripe-mock,
// which it starts on first use; grace is the grace period the test asked
// for.
func sharedStripe(t testing.TB, grace time.Duration) config.StripeConfig {
	t.Helper()
	stripeOnce.Do(startStripe)
	if stripeErr != nil {
		t.Fatalf("testenv: stripe-mock: %v", stripeErr)
	}
	return config.StripeConfig{SecretKey: stripemock.SecretKey, WebhookSecret: stripeSecret, APIURL: stripeServer.URL(), GracePeriod: grace}
}
