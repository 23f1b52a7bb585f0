package billing

import (
	"context"
	"errors"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/adapters/payments"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
)

// The results of a webhook delivery (StripeWebhookAck).
const (
	// Applied: the event changed the subscription.
	Applied = "applied"
	// Stale: a newer event of the subscription came first; recorded only.
	Stale = "stale"
	// Duplicate: the event was received before.
	Duplicate = "duplicate"
	// Ignored: a type, member or product Agora does not act on.
	Ignored = "ignored"
)

// WebhookAck is the answer to Stripe.
type WebhookAck struct {
	EventID string `json:"eventId"`
	Result  string `json:"result"`
}

// rank orders the statuses of one subscription's events of the same
// second (Stripe's created is in seconds): a later stage of the
// subscription's life wins, and canceled, which nothing follows, last.
var rank = map[string]int16{
	payments.StatusIncomplete: 0,
	payments.StatusTrialing:   1, payments.StatusActive: 2,
	payments.StatusPastDue: 3,
	payments.StatusUnpaid:  4, payments.StatusPaused: 4,
	payments.StatusIncompleteExpired: 5,
	payments.StatusCanceled:          6,
}

// Webhook is POST /stripe/webhook: the event is verified, then applied
// once. Its id is written in the transaction that applies it, so a
// redelivery, even concurrent, is a Duplicate. Events of one subscription
// may come in any order: the subscription's rows keep the newest applied
// (by created, then status rank), an older one is recorded as Stale, and
// a canceled subscription never comes back (a customer.subscription.deleted
// delivered before its customer.subscription.created leaves no access).
func (s *Service) Webhook(ctx context.Context, payload []byte, signature string) (WebhookAck, error) {
	if s.stripe == nil {
		return WebhookAck{}, ErrPaymentsUnavailable
	}
	ev, err := s.stripe.Verify(payload, signature)
	switch {
	case errors.Is(err, payments.ErrBadSignature):
		return WebhookAck{}, ErrBadSignature.Wrap(err)
	case err != nil:
		return WebhookAck{}, ErrBadEvent.Wrap(err)
	}
	ack := WebhookAck{EventID: ev.ID}
	err = db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		se := table.StripeEvents
		res, err := db.Exec(ctx, tx, se.INSERT(se.ID, se.Type, se.Created, se.Result).
			VALUES(ev.ID, ev.Type, ev.Created, Ignored).ON_CONFLICT(se.ID).DO_NOTHING())
		if err != nil {
			return err
		}
		if res.RowsAffected() == 0 {
			ack.Result = Duplicate
			return nil
		}
		ack.Result = Ignored
		if ev.Change != nil {
			if ack.Result, err = s.apply(ctx, tx, ev); err != nil {
				return err
			}
		}
		_, err = db.Exec(ctx, tx, se.UPDATE(se.Result).SET(String(ack.Result)).WHERE(se.ID.EQ(String(ev.ID))))
		return err
	})
	if err != nil {
		return WebhookAck{}, fmt.Errorf("billing: webhook %s: %w", ev.ID, err)
	}
	return ack, nil
}

// apply writes what ev says of its subscription, one row per community
// and forum it covers, unless a newer event was applied before.
func (s *Service) apply(ctx context.Context, tx pgx.Tx, ev payments.Event) (string, error) {
	ch := ev.Change
	su := table.Subscriptions
	// One subscription's events are applied one at a time, its rows
	// existing yet or not.
	if _, err := db.Exec(ctx, tx, SELECT(Func("pg_advisory_xact_lock", Func("hashtextextended", String("stripe-subscription:"+ch.SubscriptionID), Int(0))))); err != nil {
		return "", err
	}
	rows, err := db.All[model.Subscriptions](ctx, tx, SELECT(su.AllColumns).FROM(su).WHERE(su.ID.EQ(String(ch.SubscriptionID))).FOR(UPDATE()))
	if err != nil {
		return "", err
	}
	byProduct := map[uuid.UUID]model.Subscriptions{}
	for _, r := range rows {
		byProduct[r.ProductID] = r
	}
	newRank, known := rank[ch.Status]
	if !known {
		return Ignored, nil
	}
	if len(rows) > 0 {
		cur := rows[0]
		switch {
		case ch.Partial && ev.Type == payments.EventCheckoutCompleted:
			// The subscription's own events came first: they say more.
			return Stale, s.noteCustomer(ctx, tx, cur.UserID, ch.CustomerID)
		case cur.Status == payments.StatusCanceled && ch.Status != payments.StatusCanceled:
			return Stale, nil
		case ev.Created.Before(cur.EventCreated) || (ev.Created.Equal(cur.EventCreated) && newRank < cur.EventRank):
			return Stale, nil
		}
	}
	user := ch.UserID
	if len(rows) > 0 {
		user = rows[0].UserID
	}
	if ok, err := s.userExists(ctx, tx, user); err != nil || !ok {
		return Ignored, err
	}
	products := append([]uuid.UUID(nil), ch.ProductIDs...)
	for id := range byProduct {
		if !contains(products, id) {
			products = append(products, id)
		}
	}
	known2, err := s.products(ctx, tx, products)
	if err != nil {
		return "", err
	}
	checkoutItems, err := s.checkoutItems(ctx, tx, ch.CheckoutID)
	if err != nil {
		return "", err
	}
	now := s.now()
	var out []model.Subscriptions
	for _, id := range products {
		r, had := byProduct[id]
		if !had {
			info, ok := known2[id]
			if !ok {
				continue // a product Agora does not have (any more)
			}
			r = model.Subscriptions{ID: ch.SubscriptionID, ProductID: id, UserID: user, Kind: info.kind, CommunityID: info.communityID,
				Name: info.name, Currency: payments.Currency, CreatedOn: now}
			if it, ok := checkoutItems[id]; ok {
				r.StripePriceID, r.AmountCents = it.StripePriceID, it.AmountCents
			}
		} else if info, ok := known2[id]; ok {
			r.Name = info.name // a rename since
		}
		if it, ok := ch.Items[id]; ok {
			r.StripePriceID, r.AmountCents = it.PriceID, int32(it.AmountCents)
		}
		if ch.CustomerID != "" {
			r.CustomerID = ch.CustomerID
		}
		// The grace period runs from when it first became past due.
		if ch.Status == payments.StatusPastDue {
			if r.Status != payments.StatusPastDue || r.PastDueSince == nil {
				t := ev.Created
				r.PastDueSince = &t
			}
		} else {
			r.PastDueSince = nil
		}
		r.Status = ch.Status
		if ch.PeriodEnd != nil {
			r.CurrentPeriodEnd = ch.PeriodEnd
		}
		if ch.CancelAtPeriodEnd != nil {
			r.CancelAtPeriodEnd = *ch.CancelAtPeriodEnd
		}
		if ch.EndedAt != nil {
			r.EndedOn = ch.EndedAt
		}
		r.AccessUntil = accessUntil(r, ev.Created, s.opts.GracePeriod)
		r.EventCreated, r.EventRank, r.UpdatedOn = ev.Created, newRank, now
		if ev.Type == payments.EventCheckoutCompleted {
			// Provisional: Stripe makes the subscription (and its events)
			// before the session completes, so any of its own events,
			// even one created a second earlier, replaces this.
			r.EventCreated = provisional
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return Ignored, nil
	}
	if _, err := db.Exec(ctx, tx, su.INSERT(su.AllColumns).MODELS(out).ON_CONFLICT(su.ID, su.ProductID).DO_UPDATE(SET(
		su.Name.SET(su.EXCLUDED.Name), su.CustomerID.SET(su.EXCLUDED.CustomerID),
		su.StripePriceID.SET(su.EXCLUDED.StripePriceID), su.AmountCents.SET(su.EXCLUDED.AmountCents),
		su.Status.SET(su.EXCLUDED.Status), su.CurrentPeriodEnd.SET(su.EXCLUDED.CurrentPeriodEnd),
		su.CancelAtPeriodEnd.SET(su.EXCLUDED.CancelAtPeriodEnd), su.PastDueSince.SET(su.EXCLUDED.PastDueSince),
		su.EndedOn.SET(su.EXCLUDED.EndedOn), su.AccessUntil.SET(su.EXCLUDED.AccessUntil),
		su.EventCreated.SET(su.EXCLUDED.EventCreated), su.EventRank.SET(su.EXCLUDED.EventRank), su.UpdatedOn.SET(su.EXCLUDED.UpdatedOn),
	))); err != nil {
		return "", fmt.Errorf("subscriptions: %w", err)
	}
	return Applied, s.noteCustomer(ctx, tx, user, out[0].CustomerID)
}

// provisional is the order of a row written from a checkout session's
// event, before any of its subscription's own.
var provisional = time.Unix(0, 0).UTC()

// accessUntil is when the subscription r, as of an event at created,
// stops giving access (nil: it gives none):
//
//   - active and trialing: to the end of the period paid for, and the
//     grace period after it (a renewal's events may come late) unless it
//     is canceled at the period's end; a paid checkout whose subscription
//     has not said its period yet counts a month, the prices' interval;
//   - past_due: the grace period from when it became past due;
//   - canceled: to when it ended (the period's end for a cancellation at
//     the period's end), never past the period paid for;
//   - incomplete, incomplete_expired, unpaid, paused: none.
func accessUntil(r model.Subscriptions, created time.Time, grace time.Duration) *time.Time {
	var t time.Time
	switch r.Status {
	case payments.StatusActive, payments.StatusTrialing:
		t = created.AddDate(0, 1, 0)
		if r.CurrentPeriodEnd != nil {
			t = *r.CurrentPeriodEnd
		}
		if !r.CancelAtPeriodEnd {
			t = t.Add(grace)
		}
	case payments.StatusPastDue:
		t = created
		if r.PastDueSince != nil {
			t = *r.PastDueSince
		}
		t = t.Add(grace)
	case payments.StatusCanceled:
		t = created
		if r.EndedOn != nil {
			t = *r.EndedOn
		}
		if r.CurrentPeriodEnd != nil && r.CurrentPeriodEnd.Before(t) {
			t = *r.CurrentPeriodEnd
		}
	default:
		return nil
	}
	return &t
}

// noteCustomer keeps the member's Stripe customer, when Agora did not
// know it (a customer made by Stripe's checkout).
func (s *Service) noteCustomer(ctx context.Context, tx pgx.Tx, user uuid.UUID, customer string) error {
	if customer == "" || user == uuid.Nil {
		return nil
	}
	bc := table.BillingCustomers
	_, err := db.Exec(ctx, tx, bc.INSERT(bc.UserID, bc.CustomerID).VALUES(user, customer).ON_CONFLICT(bc.UserID).DO_NOTHING())
	return err
}

func (s *Service) userExists(ctx context.Context, tx pgx.Tx, user uuid.UUID) (bool, error) {
	if user == uuid.Nil {
		return false, nil
	}
	var ok bool
	u := table.Users
	err := db.QueryRow(ctx, tx, SELECT(EXISTS(SELECT(u.ID).FROM(u).WHERE(u.ID.EQ(UUID(user)))))).Scan(&ok)
	return ok, err
}

// productInfo is what a subscription row keeps of its product.
type productInfo struct {
	kind        string
	communityID uuid.UUID
	name        string
}

// products reads the communities and forums among ids.
func (s *Service) products(ctx context.Context, tx pgx.Tx, ids []uuid.UUID) (map[uuid.UUID]productInfo, error) {
	out := map[uuid.UUID]productInfo{}
	if len(ids) == 0 {
		return out, nil
	}
	se, co := table.Series, table.Communities
	rows, err := db.Query(ctx, tx, UNION_ALL(
		SELECT(se.ID, CAST(String(payments.KindForum)).AS_TEXT(), se.CommunityID, se.Name).FROM(se).WHERE(db.Any(se.ID, ids)),
		SELECT(co.ID, CAST(String(payments.KindCommunity)).AS_TEXT(), co.ID, co.Name).FROM(co).WHERE(db.Any(co.ID, ids)),
	))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id uuid.UUID
		var p productInfo
		if err := rows.Scan(&id, &p.kind, &p.communityID, &p.name); err != nil {
			return nil, err
		}
		out[id] = p
	}
	return out, rows.Err()
}

// checkoutItems are the items of Agora's checkout id, by product: a
// checkout session's event names no price, its checkout does.
func (s *Service) checkoutItems(ctx context.Context, tx pgx.Tx, id uuid.UUID) (map[uuid.UUID]model.CheckoutSessionItems, error) {
	out := map[uuid.UUID]model.CheckoutSessionItems{}
	if id == uuid.Nil {
		return out, nil
	}
	ci := table.CheckoutSessionItems
	items, err := db.All[model.CheckoutSessionItems](ctx, tx, SELECT(ci.AllColumns).FROM(ci).WHERE(ci.SessionID.EQ(UUID(id))))
	for _, it := range items {
		out[it.ProductID] = it
	}
	return out, err
}

func contains(ids []uuid.UUID, id uuid.UUID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
