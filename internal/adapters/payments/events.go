package payments

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"
)

// What Stripe sends, made here: the dev checkout page (agora dev on
// stripe-mock, whose sessions nobody pays) sends the events Stripe would
// send when a session is paid, and tests send every kind of event, signed
// as Stripe signs them. The payloads are Stripe's JSON at stripe-go's API
// version, with only the fields Agora reads and those that say what they
// are.

// SubscriptionState is a subscription as an event shows it.
type SubscriptionState struct {
	ID         string
	CustomerID string
	UserID     uuid.UUID
	CheckoutID uuid.UUID
	Items      []StateItem
	Status     string
	// PeriodEnd is the end of the period paid for.
	PeriodEnd         time.Time
	CancelAtPeriodEnd bool
	// EndedAt is when a canceled subscription ended (zero: not ended).
	EndedAt time.Time
}

// StateItem is one line of a subscription: a product at a Price.
type StateItem struct {
	Product     Product
	PriceID     string
	AmountCents int
}

// NewID is a Stripe-like id with prefix ("evt", "sub", "cus"…).
func NewID(prefix string) string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return prefix + "_" + hex.EncodeToString(b)
}

// SubscriptionEvent is a customer.subscription.* event of s.
func SubscriptionEvent(eventID, eventType string, created time.Time, s SubscriptionState) []byte {
	return event(eventID, eventType, created, subscriptionObject(s))
}

// CheckoutCompletedEvent is the checkout.session.completed event of the
// session sessionID that made s, paid or not.
func CheckoutCompletedEvent(eventID string, created time.Time, sessionID string, s SubscriptionState, paid bool) []byte {
	status := stripe.CheckoutSessionPaymentStatusUnpaid
	if paid {
		status = stripe.CheckoutSessionPaymentStatusPaid
	}
	return event(eventID, EventCheckoutCompleted, created, map[string]any{
		"id": sessionID, "object": "checkout.session", "mode": "subscription", "status": "complete",
		"payment_status": status, "customer": s.CustomerID, "subscription": s.ID,
		"client_reference_id": s.CheckoutID.String(), "metadata": metadataOf(s),
	})
}

// PaymentFailedEvent is the invoice.payment_failed event of a renewal of
// s whose payment failed.
func PaymentFailedEvent(eventID string, created time.Time, s SubscriptionState) []byte {
	return event(eventID, EventInvoicePaymentFailed, created, map[string]any{
		"id": NewID("in"), "object": "invoice", "customer": s.CustomerID, "status": "open",
		"billing_reason": "subscription_cycle",
		"parent": map[string]any{"type": "subscription_details", "subscription_details": map[string]any{
			"subscription": s.ID, "metadata": metadataOf(s)}},
	})
}

// Sign is the Stripe-Signature header of payload signed with secret at
// at, made by stripe-go's webhook.GenerateTestSignedPayload, as Stripe
// signs its deliveries.
func Sign(payload []byte, secret string, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at}).Header
}

func event(id, eventType string, created time.Time, object map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{
		"id": id, "object": "event", "api_version": stripe.APIVersion, "created": created.Unix(),
		"type": eventType, "livemode": false, "pending_webhooks": 1,
		"request": map[string]any{"id": nil, "idempotency_key": nil},
		"data":    map[string]any{"object": object},
	})
	return b
}

func metadataOf(s SubscriptionState) map[string]string {
	ids := make([]string, len(s.Items))
	for i, it := range s.Items {
		ids[i] = it.Product.ID.String()
	}
	m := map[string]string{MetaUserID: s.UserID.String(), MetaProductIDs: strings.Join(ids, ",")}
	if s.CheckoutID != uuid.Nil {
		m[MetaCheckoutID] = s.CheckoutID.String()
	}
	return m
}

func subscriptionObject(s SubscriptionState) map[string]any {
	start := s.PeriodEnd.AddDate(0, -1, 0)
	items := make([]any, len(s.Items))
	for i, it := range s.Items {
		items[i] = map[string]any{
			"id": NewID("si"), "object": "subscription_item", "quantity": 1, "subscription": s.ID,
			"current_period_start": start.Unix(), "current_period_end": s.PeriodEnd.Unix(),
			"metadata": map[string]string{},
			"price": map[string]any{
				"id": it.PriceID, "object": "price", "active": true, "currency": strings.ToLower(Currency),
				"unit_amount": it.AmountCents, "type": "recurring", "metadata": it.Product.metadata(),
				"recurring": map[string]any{"interval": "month", "interval_count": 1, "usage_type": "licensed"},
			},
		}
	}
	var ended, canceled any
	if !s.EndedAt.IsZero() {
		ended, canceled = s.EndedAt.Unix(), s.EndedAt.Unix()
	}
	return map[string]any{
		"id": s.ID, "object": "subscription", "customer": s.CustomerID, "status": s.Status,
		"cancel_at_period_end": s.CancelAtPeriodEnd, "canceled_at": canceled, "ended_at": ended,
		"collection_method": "charge_automatically", "currency": strings.ToLower(Currency),
		"start_date": start.Unix(), "metadata": metadataOf(s),
		"items": map[string]any{"object": "list", "data": items, "has_more": false, "url": "/v1/subscription_items?subscription=" + s.ID},
	}
}
