// Package billing is the write side of paid communities and forums
// (spec 000 §2.6, §4 "Subscription", §7 "Subscription and checkout"):
// checkout, the customer portal, Stripe's webhook, and the dev checkout
// page's payment. Stripe is reached through the Stripe port (the
// internal/adapters/payments client); access itself is internal/rules/access's rule over
// the rows written here.
package billing

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/adapters/payments"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/db"
)

// Stripe is what the use cases ask of Stripe (*payments.Client).
type Stripe interface {
	CreateProduct(ctx context.Context, p payments.Product) (string, error)
	RenameProduct(ctx context.Context, stripeID string, p payments.Product) error
	CreatePrice(ctx context.Context, stripeProductID string, p payments.Product, amountCents int) (string, error)
	CreateCustomer(ctx context.Context, c payments.Customer) (string, error)
	CreateCheckoutSession(ctx context.Context, in payments.Checkout) (payments.Session, error)
	CreatePortalSession(ctx context.Context, customerID, returnURL string) (string, error)
	Verify(payload []byte, header string) (payments.Event, error)
}

// Options are the service's settings.
type Options struct {
	// PublicURL is the app's address for browsers: checkout comes back to
	// it, the portal returns to its /subscriptions page.
	PublicURL string
	// GracePeriod is how long a past-due subscription keeps access.
	GracePeriod time.Duration
	// DevCheckout sends checkouts to the dev checkout page of this server
	// (agora dev on stripe-mock), whose payment posts signed events to
	// SelfWebhookURL signed with DevWebhookSecret.
	DevCheckout      bool
	SelfWebhookURL   string
	DevWebhookSecret string
}

// Service runs the billing commands.
type Service struct {
	db     *pgxpool.Pool
	stripe Stripe
	opts   Options
	log    *slog.Logger
	http   *http.Client
	now    func() time.Time
}

// New builds the service. A nil stripe is no Stripe account (agora api
// without STRIPE_SECRET_KEY): every call answers ErrPaymentsUnavailable.
func New(d *db.DB, stripe Stripe, opts Options, log *slog.Logger) (*Service, error) {
	if d == nil || d.Pool == nil || log == nil {
		return nil, errors.New("billing.New: nil dependency")
	}
	if opts.DevCheckout && (opts.SelfWebhookURL == "" || opts.DevWebhookSecret == "") {
		return nil, errors.New("billing.New: the dev checkout needs the server's webhook URL and secret")
	}
	return &Service{db: d.Pool, stripe: stripe, opts: opts, log: log, http: &http.Client{Timeout: 30 * time.Second}, now: time.Now}, nil
}

// The errors of the billing calls (spec 000 §8: checkout failures are
// logged and reject the pending subscription).
var (
	// ErrPaymentsUnavailable is a call while no Stripe account is
	// configured.
	ErrPaymentsUnavailable = apperr.New(apperr.NotFound, "paymentsUnavailable", "payments are not configured on this server")
	// ErrAlreadySubscribed is a checkout by someone who has access already.
	ErrAlreadySubscribed = apperr.New(apperr.Conflict, "alreadySubscribed", "you already have access to this")
	// ErrProductFree is a checkout of a free community or forum.
	ErrProductFree = apperr.New(apperr.Conflict, "productFree", "this is free: there is nothing to pay")
	// ErrCheckoutCreating is a checkout Stripe refused or did not answer.
	ErrCheckoutCreating = apperr.New(apperr.Unprocessable, "checkoutCreating", "the payment provider could not start the checkout; try again")
	// ErrNoBillingAccount is a portal asked by someone who never checked
	// out.
	ErrNoBillingAccount = apperr.New(apperr.Conflict, "noBillingAccount", "you have no subscriptions to manage")
	// ErrBillingPortalCreating is a portal session Stripe refused or did
	// not answer.
	ErrBillingPortalCreating = apperr.New(apperr.Unprocessable, "billingPortalCreating", "the payment provider could not open its portal; try again")
	// ErrBadSignature is a webhook whose signature does not verify.
	ErrBadSignature = apperr.New(apperr.Unauthorized, "tokenInvalid", "the webhook's signature does not verify")
	// ErrBadEvent is a signed webhook body that is not an event.
	ErrBadEvent = apperr.New(apperr.BadInput, "invalidBody", "the webhook's body is not a Stripe event of the expected shape")
)
