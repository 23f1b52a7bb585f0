package billing

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/adapters/payments"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
)

// PayDevCheckout is POST /dev/checkout/{id}, the dev checkout page's Pay
// button (agora dev on stripe-mock): it does what Stripe does when a
// customer pays, sending this server's webhook the events Stripe would
// send (checkout.session.completed, then customer.subscription.created,
// active for a month), signed with the dev webhook secret, and answers the
// session's success URL. The events' ids come from the checkout's, so
// paying twice changes nothing.
func (s *Service) PayDevCheckout(ctx context.Context, id uuid.UUID) (string, error) {
	if !s.opts.DevCheckout {
		return "", apperr.ErrNotFound
	}
	cs, ci := table.CheckoutSessions, table.CheckoutSessionItems
	session, err := db.One[model.CheckoutSessions](ctx, s.db, SELECT(cs.AllColumns).FROM(cs).WHERE(cs.ID.EQ(UUID(id))))
	if errors.Is(err, pgx.ErrNoRows) {
		return "", apperr.ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("billing: dev checkout: %w", err)
	}
	items, err := db.All[model.CheckoutSessionItems](ctx, s.db, SELECT(ci.AllColumns).FROM(ci).WHERE(ci.SessionID.EQ(UUID(id))).ORDER_BY(ci.Position))
	if err != nil {
		return "", fmt.Errorf("billing: dev checkout: %w", err)
	}
	key := strings.ReplaceAll(id.String(), "-", "")
	now := s.now()
	st := payments.SubscriptionState{ID: "sub_dev" + key, CustomerID: session.CustomerID, UserID: session.UserID, CheckoutID: id,
		Status: payments.StatusActive, PeriodEnd: now.AddDate(0, 1, 0)}
	for _, it := range items {
		st.Items = append(st.Items, payments.StateItem{Product: payments.Product{ID: it.ProductID, Kind: it.Kind, Name: it.Name},
			PriceID: it.StripePriceID, AmountCents: int(it.AmountCents)})
	}
	for _, body := range [][]byte{
		payments.CheckoutCompletedEvent("evt_dev"+key+"_completed", now, session.StripeSessionID, st, true),
		payments.SubscriptionEvent("evt_dev"+key+"_created", payments.EventSubscriptionCreated, now, st),
	} {
		if err := s.deliver(ctx, body); err != nil {
			return "", err
		}
	}
	return strings.ReplaceAll(session.SuccessURL, "{CHECKOUT_SESSION_ID}", session.StripeSessionID), nil
}

// deliver posts a signed event to this server's own webhook, as Stripe
// would.
func (s *Service) deliver(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.opts.SelfWebhookURL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Stripe-Signature", payments.Sign(body, s.opts.DevWebhookSecret, s.now()))
	resp, err := s.http.Do(req)
	if err != nil {
		return fmt.Errorf("billing: dev checkout: deliver: %w", err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("billing: dev checkout: the webhook answered %d: %s", resp.StatusCode, answer)
	}
	return nil
}
