package payments

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"
)

// The event types Agora acts on.
const (
	EventCheckoutCompleted    = "checkout.session.completed"
	EventSubscriptionCreated  = "customer.subscription.created"
	EventSubscriptionUpdated  = "customer.subscription.updated"
	EventSubscriptionDeleted  = "customer.subscription.deleted"
	EventInvoicePaymentFailed = "invoice.payment_failed"
)

// Subscription statuses (Stripe's).
const (
	StatusIncomplete        = "incomplete"
	StatusIncompleteExpired = "incomplete_expired"
	StatusTrialing          = "trialing"
	StatusActive            = "active"
	StatusPastDue           = "past_due"
	StatusUnpaid            = "unpaid"
	StatusCanceled          = "canceled"
	StatusPaused            = "paused"
)

var (
	// ErrBadSignature is a webhook whose Stripe-Signature header is
	// missing, malformed, too old, or does not verify with the secret.
	ErrBadSignature = errors.New("payments: the webhook's signature does not verify")
	// ErrBadEvent is a signed body that is not an event Agora can read (or
	// of another API version than stripe-go's).
	ErrBadEvent = errors.New("payments: the webhook's body is not a readable event")
)

// Event is a verified webhook event, as Agora reads it.
type Event struct {
	ID      string
	Type    string
	Created time.Time
	// Change is what it says about a subscription; nil for a type Agora
	// does not act on.
	Change *Change
}

// Change is what one event says of one Stripe subscription.
type Change struct {
	SubscriptionID string
	CustomerID     string
	// UserID is the member, from the metadata (uuid.Nil when it is not
	// Agora's).
	UserID uuid.UUID
	// ProductIDs are the communities and forums it covers, from the
	// metadata, in order.
	ProductIDs []uuid.UUID
	// Items are the subscription's lines by product, when the event
	// carries them (the subscription's own events).
	Items  map[uuid.UUID]ItemState
	Status string
	// PeriodEnd is the end of the period paid for (the latest of its
	// items'); nil when the event does not say.
	PeriodEnd *time.Time
	// CancelAtPeriodEnd is nil when the event does not say.
	CancelAtPeriodEnd *bool
	// EndedAt is when a canceled subscription ended.
	EndedAt *time.Time
	// Partial is an event that is not the subscription's own (a checkout
	// session's, an invoice's): it does not say everything, and must not
	// undo what the subscription's own events said.
	Partial bool
	// CheckoutID is Agora's checkout id, from the metadata, when present.
	CheckoutID uuid.UUID
}

// ItemState is one line of a subscription.
type ItemState struct {
	PriceID     string
	AmountCents int
	Currency    string
}

// Verify checks the Stripe-Signature header of a webhook's body with the
// endpoint's secret (stripe-go's webhook.ConstructEvent: the signature,
// a timestamp within 5 minutes, stripe-go's API version) and reads the
// event.
func (c *Client) Verify(payload []byte, header string) (Event, error) {
	e, err := webhook.ConstructEvent(payload, header, c.webhookSecret)
	if err != nil {
		switch {
		case errors.Is(err, webhook.ErrNotSigned), errors.Is(err, webhook.ErrInvalidHeader),
			errors.Is(err, webhook.ErrNoValidSignature), errors.Is(err, webhook.ErrTooOld):
			return Event{}, fmt.Errorf("%w: %w", ErrBadSignature, err)
		}
		return Event{}, fmt.Errorf("%w: %w", ErrBadEvent, err)
	}
	return Read(e)
}

// Read reads a verified event.
func Read(e stripe.Event) (Event, error) {
	if e.ID == "" || e.Data == nil {
		return Event{}, fmt.Errorf("%w: no id or data", ErrBadEvent)
	}
	out := Event{ID: e.ID, Type: string(e.Type), Created: time.Unix(e.Created, 0).UTC()}
	var err error
	switch out.Type {
	case EventSubscriptionCreated, EventSubscriptionUpdated, EventSubscriptionDeleted:
		var s stripe.Subscription
		if err = json.Unmarshal(e.Data.Raw, &s); err == nil {
			out.Change, err = subscriptionChange(&s)
		}
	case EventCheckoutCompleted:
		var s stripe.CheckoutSession
		if err = json.Unmarshal(e.Data.Raw, &s); err == nil {
			out.Change, err = checkoutChange(&s)
		}
	case EventInvoicePaymentFailed:
		var inv stripe.Invoice
		if err = json.Unmarshal(e.Data.Raw, &inv); err == nil {
			out.Change, err = invoiceChange(&inv)
		}
	}
	if err != nil {
		return Event{}, fmt.Errorf("%w: %s: %w", ErrBadEvent, out.Type, err)
	}
	return out, nil
}

// subscriptionChange reads a subscription's own event: everything it
// says is the subscription's state at the event's time.
func subscriptionChange(s *stripe.Subscription) (*Change, error) {
	if s.ID == "" {
		return nil, errors.New("no subscription id")
	}
	ch := &Change{SubscriptionID: s.ID, Status: string(s.Status), Items: map[uuid.UUID]ItemState{}}
	if s.Customer != nil {
		ch.CustomerID = s.Customer.ID
	}
	ch.UserID, ch.ProductIDs, ch.CheckoutID = readMetadata(s.Metadata)
	cancel := s.CancelAtPeriodEnd
	ch.CancelAtPeriodEnd = &cancel
	if s.EndedAt > 0 {
		t := time.Unix(s.EndedAt, 0).UTC()
		ch.EndedAt = &t
	}
	var periodEnd int64
	if s.Items != nil {
		for _, it := range s.Items.Data {
			if it == nil || it.Price == nil {
				continue
			}
			if it.CurrentPeriodEnd > periodEnd {
				periodEnd = it.CurrentPeriodEnd
			}
			product, err := uuid.Parse(it.Price.Metadata[MetaProductID])
			if err != nil && len(ch.ProductIDs) == 1 && len(s.Items.Data) == 1 {
				// A Price made outside Agora for its one product.
				product, err = ch.ProductIDs[0], nil
			}
			if err != nil {
				continue
			}
			ch.Items[product] = ItemState{PriceID: it.Price.ID, AmountCents: int(it.Price.UnitAmount),
				Currency: strings.ToUpper(string(it.Price.Currency))}
			if !contains(ch.ProductIDs, product) {
				ch.ProductIDs = append(ch.ProductIDs, product)
			}
		}
	}
	if periodEnd > 0 {
		t := time.Unix(periodEnd, 0).UTC()
		ch.PeriodEnd = &t
	}
	return ch, nil
}

// checkoutChange reads a completed checkout session: it names the
// subscription, the member and the products, and whether it was paid,
// but none of the subscription's details.
func checkoutChange(s *stripe.CheckoutSession) (*Change, error) {
	if s.Mode != stripe.CheckoutSessionModeSubscription || s.Subscription == nil || s.Subscription.ID == "" {
		return nil, nil // not a subscription's checkout: nothing for Agora
	}
	ch := &Change{SubscriptionID: s.Subscription.ID, Partial: true, Status: StatusIncomplete}
	if s.PaymentStatus == stripe.CheckoutSessionPaymentStatusPaid || s.PaymentStatus == stripe.CheckoutSessionPaymentStatusNoPaymentRequired {
		ch.Status = StatusActive
	}
	if s.Customer != nil {
		ch.CustomerID = s.Customer.ID
	}
	ch.UserID, ch.ProductIDs, ch.CheckoutID = readMetadata(s.Metadata)
	return ch, nil
}

// invoiceChange reads a failed payment of a subscription's invoice: the
// subscription is past due from the event's time.
func invoiceChange(inv *stripe.Invoice) (*Change, error) {
	if inv.Parent == nil || inv.Parent.SubscriptionDetails == nil || inv.Parent.SubscriptionDetails.Subscription == nil ||
		inv.Parent.SubscriptionDetails.Subscription.ID == "" {
		return nil, nil // not a subscription's invoice
	}
	d := inv.Parent.SubscriptionDetails
	ch := &Change{SubscriptionID: d.Subscription.ID, Partial: true, Status: StatusPastDue}
	if inv.Customer != nil {
		ch.CustomerID = inv.Customer.ID
	}
	ch.UserID, ch.ProductIDs, ch.CheckoutID = readMetadata(d.Metadata)
	return ch, nil
}

// readMetadata reads the member, the products and the checkout that Agora
// put in a session's and a subscription's metadata; what is missing or
// malformed is left out.
func readMetadata(m map[string]string) (user uuid.UUID, products []uuid.UUID, checkout uuid.UUID) {
	user, _ = uuid.Parse(m[MetaUserID])
	checkout, _ = uuid.Parse(m[MetaCheckoutID])
	for _, s := range strings.Split(m[MetaProductIDs], ",") {
		if id, err := uuid.Parse(strings.TrimSpace(s)); err == nil && !contains(products, id) {
			products = append(products, id)
		}
	}
	return user, products, checkout
}

func contains(ids []uuid.UUID, id uuid.UUID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
