// Package payments is the one package that talks to Stripe (stripe-go):
// the Product and the monthly Prices of each paid community and forum, the
// members' customers, Checkout Sessions in subscription mode, customer
// portal sessions, and the verification and reading of Stripe's signed
// webhook events. Nothing else imports stripe-go, so that what Agora asks
// of Stripe, and what it believes of Stripe's events, is in one place.
//
// A checkout of a forum whose community is paid too, and not yet paid for
// by the member, is one Checkout Session with two line items rather than
// two sessions (as the spec's client makes): Checkout is a redirect to one
// hosted page, so two sessions would be two payment pages one after the
// other, and a member who stopped between them would pay for a forum
// without the community it lives in. One session makes one subscription of
// two items, paid at once, renewed and canceled together.
//
// Events are read from their signed payload alone, never by asking Stripe
// back: the subscription's metadata names the member and the products
// (MetaUserID, MetaProductIDs), each Price's metadata its product, so the
// handler works the same against stripe-mock, which keeps no state.
package payments

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v85"
)

// Metadata keys Agora sets on Stripe objects and reads back from events.
const (
	// MetaUserID names the member (users.id) on a checkout session, its
	// subscription and the customer.
	MetaUserID = "agoraUserId"
	// MetaProductIDs lists the communities and forums (comma-separated
	// ids) a checkout session and its subscription are for.
	MetaProductIDs = "agoraProductIds"
	// MetaCheckoutID is Agora's id of the checkout session.
	MetaCheckoutID = "agoraCheckoutId"
	// MetaProductID names the community or forum of a Product and a Price.
	MetaProductID = "agoraProductId"
	// MetaKind is community or forum, on a Product and a Price.
	MetaKind = "agoraKind"
)

// Kinds of product.
const (
	KindCommunity = "community"
	KindForum     = "forum"
)

// Currency is the one currency of prices (spec 000 §3 "Price": USD).
const Currency = "USD"

// ErrStripe is a call that Stripe refused or did not answer; the cause is
// kept for the log.
var ErrStripe = errors.New("payments: stripe")

// Config is a Stripe account.
type Config struct {
	// SecretKey is the account's secret (or restricted) key.
	SecretKey string
	// WebhookSecret is the webhook endpoint's signing secret.
	WebhookSecret string
	// APIURL is the API's base URL; empty is Stripe's own.
	APIURL string
	// HTTPClient makes the calls; nil is a client with a 30 s timeout.
	HTTPClient *http.Client
}

// Client is Agora's Stripe account.
type Client struct {
	sc            *stripe.Client
	webhookSecret string
}

// New returns a client of the account.
func New(cfg Config) (*Client, error) {
	if cfg.SecretKey == "" || cfg.WebhookSecret == "" {
		return nil, errors.New("payments.New: a secret key and a webhook secret are required")
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	bc := &stripe.BackendConfig{
		HTTPClient: hc,
		// Failures are returned and logged by the caller, once.
		LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelNull},
		// Idempotency keys make a retry safe; two retries as stripe-go's
		// default.
		MaxNetworkRetries: stripe.Int64(2),
	}
	if cfg.APIURL != "" {
		bc.URL = stripe.String(strings.TrimRight(cfg.APIURL, "/"))
	}
	backends := &stripe.Backends{
		API:         stripe.GetBackendWithConfig(stripe.APIBackend, bc),
		Connect:     stripe.GetBackendWithConfig(stripe.ConnectBackend, bc),
		Uploads:     stripe.GetBackendWithConfig(stripe.UploadsBackend, bc),
		MeterEvents: stripe.GetBackendWithConfig(stripe.MeterEventsBackend, bc),
	}
	return &Client{sc: stripe.NewClient(cfg.SecretKey, stripe.WithBackends(backends)), webhookSecret: cfg.WebhookSecret}, nil
}

// Product is a paid community or forum.
type Product struct {
	ID   uuid.UUID
	Kind string
	Name string
}

func (p Product) metadata() map[string]string {
	return map[string]string{MetaProductID: p.ID.String(), MetaKind: p.Kind}
}

// CreateProduct makes the Stripe Product of p and returns its id. The
// idempotency key is p's id, so that two first checkouts at once make one
// Product.
func (c *Client) CreateProduct(ctx context.Context, p Product) (string, error) {
	params := &stripe.ProductCreateParams{Name: stripe.String(productName(p)), Metadata: p.metadata()}
	params.IdempotencyKey = stripe.String("agora-product-" + p.ID.String())
	prod, err := c.sc.V1Products.Create(ctx, params)
	if err != nil {
		return "", fmt.Errorf("%w: create product: %w", ErrStripe, err)
	}
	return prod.ID, nil
}

// RenameProduct gives the Stripe Product stripeID p's name (a community
// or forum renamed since its Product was made).
func (c *Client) RenameProduct(ctx context.Context, stripeID string, p Product) error {
	if _, err := c.sc.V1Products.Update(ctx, stripeID, &stripe.ProductUpdateParams{Name: stripe.String(productName(p))}); err != nil {
		return fmt.Errorf("%w: rename product: %w", ErrStripe, err)
	}
	return nil
}

// productName is what the payment page and the invoices show.
func productName(p Product) string {
	kind := "Forum"
	if p.Kind == KindCommunity {
		kind = "Community"
	}
	return kind + ": " + p.Name
}

// CreatePrice makes a monthly Price of amountCents US cents for the
// Stripe Product stripeProductID of p, and returns its id.
func (c *Client) CreatePrice(ctx context.Context, stripeProductID string, p Product, amountCents int) (string, error) {
	params := &stripe.PriceCreateParams{
		Product:    stripe.String(stripeProductID),
		Currency:   stripe.String(strings.ToLower(Currency)),
		UnitAmount: stripe.Int64(int64(amountCents)),
		Recurring:  &stripe.PriceCreateRecurringParams{Interval: stripe.String("month")},
		Metadata:   p.metadata(),
	}
	params.IdempotencyKey = stripe.String(fmt.Sprintf("agora-price-%s-%d", p.ID, amountCents))
	price, err := c.sc.V1Prices.Create(ctx, params)
	if err != nil {
		return "", fmt.Errorf("%w: create price: %w", ErrStripe, err)
	}
	return price.ID, nil
}

// Customer is a member as Stripe's customer.
type Customer struct {
	UserID uuid.UUID
	Email  string
	Name   string
}

// CreateCustomer makes the Stripe customer of a member and returns its id.
func (c *Client) CreateCustomer(ctx context.Context, cu Customer) (string, error) {
	params := &stripe.CustomerCreateParams{Email: stripe.String(cu.Email), Name: stripe.String(cu.Name),
		Metadata: map[string]string{MetaUserID: cu.UserID.String()}}
	params.IdempotencyKey = stripe.String("agora-customer-" + cu.UserID.String())
	out, err := c.sc.V1Customers.Create(ctx, params)
	if err != nil {
		return "", fmt.Errorf("%w: create customer: %w", ErrStripe, err)
	}
	return out.ID, nil
}

// Item is one line of a checkout: a product at one of its Prices.
type Item struct {
	Product
	PriceID string
}

// Checkout is a Checkout Session to make.
type Checkout struct {
	// ID is Agora's id of the session (its metadata, and the client
	// reference).
	ID         uuid.UUID
	UserID     uuid.UUID
	CustomerID string
	Items      []Item
	SuccessURL string
	CancelURL  string
}

// Session is a Checkout Session made.
type Session struct {
	ID  string
	URL string
}

// CreateCheckoutSession makes a Checkout Session in subscription mode for
// the items, whose subscription carries the member and the products in its
// metadata.
func (c *Client) CreateCheckoutSession(ctx context.Context, in Checkout) (Session, error) {
	ids := make([]string, len(in.Items))
	lines := make([]*stripe.CheckoutSessionCreateLineItemParams, len(in.Items))
	for i, it := range in.Items {
		ids[i] = it.ID.String()
		lines[i] = &stripe.CheckoutSessionCreateLineItemParams{Price: stripe.String(it.PriceID), Quantity: stripe.Int64(1)}
	}
	meta := map[string]string{MetaUserID: in.UserID.String(), MetaProductIDs: strings.Join(ids, ","), MetaCheckoutID: in.ID.String()}
	params := &stripe.CheckoutSessionCreateParams{
		Mode:              stripe.String(string(stripe.CheckoutSessionModeSubscription)),
		Customer:          stripe.String(in.CustomerID),
		ClientReferenceID: stripe.String(in.ID.String()),
		LineItems:         lines,
		SuccessURL:        stripe.String(in.SuccessURL),
		CancelURL:         stripe.String(in.CancelURL),
		Metadata:          meta,
		SubscriptionData:  &stripe.CheckoutSessionCreateSubscriptionDataParams{Metadata: meta},
	}
	params.IdempotencyKey = stripe.String("agora-checkout-" + in.ID.String())
	s, err := c.sc.V1CheckoutSessions.Create(ctx, params)
	if err != nil {
		return Session{}, fmt.Errorf("%w: create checkout session: %w", ErrStripe, err)
	}
	return Session{ID: s.ID, URL: s.URL}, nil
}

// CreatePortalSession makes a customer portal session for the customer,
// whose way back is returnURL, and returns its URL.
func (c *Client) CreatePortalSession(ctx context.Context, customerID, returnURL string) (string, error) {
	s, err := c.sc.V1BillingPortalSessions.Create(ctx, &stripe.BillingPortalSessionCreateParams{
		Customer: stripe.String(customerID), ReturnURL: stripe.String(returnURL)})
	if err != nil {
		return "", fmt.Errorf("%w: create portal session: %w", ErrStripe, err)
	}
	return s.URL, nil
}
