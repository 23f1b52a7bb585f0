package app

import (
	"context"
	"log/slog"

	cmdbilling "agora/command/billing"
	"agora/internal/adapters/payments"
	"agora/internal/plumbing/config"
	"agora/internal/plumbing/db"
	"agora/internal/standins/childproc"
	"agora/internal/standins/stripemock"
)

// StripeWebhookPath is where Stripe posts its events.
const StripeWebhookPath = "/api/stripe/webhook"

// Stripe is the Stripe account paid communities and forums are billed on:
// STRIPE_SECRET_KEY's, or a local stripe-mock that this process started.
type Stripe struct {
	// Mock is the local stripe-mock, nil with STRIPE_SECRET_KEY.
	Mock *stripemock.Server
}

// StartStripe starts a local stripe-mock under the data folder
// (stripe-mock/) when neither STRIPE_SECRET_KEY nor STRIPE_WEBHOOK_SECRET
// is set, and fills cfg.Stripe with its URL, a test key and a webhook
// secret made for this run, so that everything built from cfg afterwards
// uses it: checkouts then go to the dev checkout page, whose Pay signs the
// webhook events with that secret. agora dev calls it before building the
// API, and says so in its log.
func StartStripe(ctx context.Context, cfg *config.Config, log *slog.Logger) (*Stripe, error) {
	if cfg.Stripe.Enabled() || cfg.Stripe.WebhookSecret != "" {
		return &Stripe{}, nil
	}
	srv, err := stripemock.Start(ctx, cfg.StripeMockDir(), log)
	if err != nil {
		return nil, err
	}
	cfg.Stripe.SecretKey, cfg.Stripe.APIURL = stripemock.SecretKey, srv.URL()
	cfg.Stripe.WebhookSecret = "whsec_" + childproc.RandomHex(24)
	// A warning, as SMTP's: nothing is charged, which nobody should miss.
	log.Warn("STRIPE_SECRET_KEY is not set: payments run on a local stripe-mock, and checkouts go to the dev checkout page",
		"stripeMock", srv.URL(), "devCheckout", "/api/dev/checkout/{id}")
	return &Stripe{Mock: srv}, nil
}

// Close stops the local stripe-mock, if any.
func (s *Stripe) Close() error {
	if s.Mock == nil {
		return nil
	}
	return s.Mock.Close()
}

// newBilling builds the billing commands over cfg.Stripe; without a
// Stripe account (agora api without STRIPE_SECRET_KEY) they answer that
// payments are unavailable.
func newBilling(cfg config.Config, d *db.DB, log *slog.Logger) (*cmdbilling.Service, error) {
	var stripe cmdbilling.Stripe
	if cfg.Stripe.Enabled() {
		c, err := payments.New(payments.Config{SecretKey: cfg.Stripe.SecretKey, WebhookSecret: cfg.Stripe.WebhookSecret, APIURL: cfg.Stripe.APIURL})
		if err != nil {
			return nil, err
		}
		stripe = c
	} else {
		log.Warn("STRIPE_SECRET_KEY is not set: paid communities and forums cannot be checked out")
	}
	opts := cmdbilling.Options{PublicURL: cfg.BaseURL(), GracePeriod: cfg.Stripe.GracePeriod, DevCheckout: cfg.DevCheckout()}
	if opts.DevCheckout {
		// The dev checkout page's Pay posts to this server's own webhook.
		opts.SelfWebhookURL, opts.DevWebhookSecret = loopbackURL(cfg.Addr, StripeWebhookPath), cfg.Stripe.WebhookSecret
	}
	return cmdbilling.New(d, stripe, opts, log.With("part", "billing"))
}
