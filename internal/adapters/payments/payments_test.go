package payments_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/internal/adapters/payments"
	"agora/internal/standins/stripemock"
)

const secret = "whsec_test_secret"

func mock(t *testing.T) *payments.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := stripemock.Start(ctx, t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	c, err := payments.New(payments.Config{SecretKey: stripemock.SecretKey, WebhookSecret: secret, APIURL: s.URL()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCallsAgainstStripeMock makes every object Agora asks Stripe for, on
// stripe-mock: each answers an id of its kind, and the session a URL.
func TestCallsAgainstStripeMock(t *testing.T) {
	c := mock(t)
	ctx := t.Context()
	forum := payments.Product{ID: uuid.New(), Kind: payments.KindForum, Name: "Applied ML"}
	prod, err := c.CreateProduct(ctx, forum)
	if err != nil || !strings.HasPrefix(prod, "prod_") {
		t.Fatalf("product %q, %v", prod, err)
	}
	if err := c.RenameProduct(ctx, prod, forum); err != nil {
		t.Fatal(err)
	}
	price, err := c.CreatePrice(ctx, prod, forum, 3995)
	if err != nil || !strings.HasPrefix(price, "price_") {
		t.Fatalf("price %q, %v", price, err)
	}
	cus, err := c.CreateCustomer(ctx, payments.Customer{UserID: uuid.New(), Email: "a@demo.agora", Name: "A B"})
	if err != nil || !strings.HasPrefix(cus, "cus_") {
		t.Fatalf("customer %q, %v", cus, err)
	}
	s, err := c.CreateCheckoutSession(ctx, payments.Checkout{ID: uuid.New(), UserID: uuid.New(), CustomerID: cus,
		Items: []payments.Item{{Product: forum, PriceID: price}}, SuccessURL: "http://127.0.0.1/ok", CancelURL: "http://127.0.0.1/no"})
	if err != nil || !strings.HasPrefix(s.ID, "cs_") || s.URL == "" {
		t.Fatalf("session %+v, %v", s, err)
	}
	url, err := c.CreatePortalSession(ctx, cus, "http://127.0.0.1/subscriptions")
	if err != nil || url == "" {
		t.Fatalf("portal %q, %v", url, err)
	}
	// A Stripe that does not answer is ErrStripe.
	down, err := payments.New(payments.Config{SecretKey: stripemock.SecretKey, WebhookSecret: secret, APIURL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := down.CreatePortalSession(ctx, cus, "http://127.0.0.1/subscriptions"); !errors.Is(err, payments.ErrStripe) {
		t.Errorf("a Stripe that does not answer: %v", err)
	}
}

// TestVerifyAndRead: the events payments makes, signed as Stripe signs
// them, verify and read back as what they say; a bad signature, another
// secret, an old timestamp, a changed body and another API version do not.
func TestVerifyAndRead(t *testing.T) {
	c, err := payments.New(payments.Config{SecretKey: "sk_test_x", WebhookSecret: secret})
	if err != nil {
		t.Fatal(err)
	}
	community := payments.Product{ID: uuid.New(), Kind: payments.KindCommunity, Name: "C"}
	forum := payments.Product{ID: uuid.New(), Kind: payments.KindForum, Name: "F"}
	end := time.Now().Add(30 * 24 * time.Hour).Truncate(time.Second).UTC()
	st := payments.SubscriptionState{ID: "sub_1", CustomerID: "cus_1", UserID: uuid.New(), CheckoutID: uuid.New(), Status: payments.StatusActive,
		PeriodEnd: end, Items: []payments.StateItem{{Product: community, PriceID: "price_c", AmountCents: 3995}, {Product: forum, PriceID: "price_f", AmountCents: 1500}}}
	now := time.Now()
	body := payments.SubscriptionEvent("evt_1", payments.EventSubscriptionCreated, now, st)
	e, err := c.Verify(body, payments.Sign(body, secret, now))
	if err != nil {
		t.Fatal(err)
	}
	ch := e.Change
	if e.ID != "evt_1" || e.Type != payments.EventSubscriptionCreated || ch == nil || ch.SubscriptionID != "sub_1" || ch.CustomerID != "cus_1" ||
		ch.UserID != st.UserID || ch.CheckoutID != st.CheckoutID || ch.Status != "active" || ch.Partial ||
		ch.PeriodEnd == nil || !ch.PeriodEnd.Equal(end) || ch.CancelAtPeriodEnd == nil || *ch.CancelAtPeriodEnd || ch.EndedAt != nil ||
		len(ch.ProductIDs) != 2 || ch.ProductIDs[0] != community.ID || ch.Items[forum.ID].AmountCents != 1500 ||
		ch.Items[community.ID].PriceID != "price_c" || ch.Items[forum.ID].Currency != "USD" {
		t.Fatalf("read %+v / %+v", e, ch)
	}

	st.Status, st.EndedAt = payments.StatusCanceled, now.Truncate(time.Second)
	del := payments.SubscriptionEvent("evt_2", payments.EventSubscriptionDeleted, now, st)
	if e, err := c.Verify(del, payments.Sign(del, secret, now)); err != nil || e.Change.Status != "canceled" || e.Change.EndedAt == nil {
		t.Errorf("deleted: %+v, %v", e.Change, err)
	}
	paid := payments.CheckoutCompletedEvent("evt_3", now, "cs_1", st, true)
	if e, err := c.Verify(paid, payments.Sign(paid, secret, now)); err != nil || !e.Change.Partial || e.Change.Status != "active" ||
		e.Change.SubscriptionID != "sub_1" || e.Change.UserID != st.UserID || len(e.Change.ProductIDs) != 2 {
		t.Errorf("checkout: %+v, %v", e.Change, err)
	}
	failed := payments.PaymentFailedEvent("evt_4", now, st)
	if e, err := c.Verify(failed, payments.Sign(failed, secret, now)); err != nil || !e.Change.Partial || e.Change.Status != "past_due" ||
		e.Change.SubscriptionID != "sub_1" || e.Change.UserID != st.UserID {
		t.Errorf("payment failed: %+v, %v", e.Change, err)
	}
	other := []byte(strings.Replace(string(body), `"customer.subscription.created"`, `"charge.succeeded"`, 1))
	if e, err := c.Verify(other, payments.Sign(other, secret, now)); err != nil || e.Change != nil {
		t.Errorf("another type: %+v, %v", e, err)
	}

	bad := []struct {
		name, header string
		body         []byte
		want         error
	}{
		{"no header", "", body, payments.ErrBadSignature},
		{"another secret", payments.Sign(body, "whsec_other", now), body, payments.ErrBadSignature},
		{"too old", payments.Sign(body, secret, now.Add(-10*time.Minute)), body, payments.ErrBadSignature},
		{"garbage header", "t=abc,v1=zz", body, payments.ErrBadSignature},
		{"body changed", payments.Sign(body, secret, now), []byte(strings.Replace(string(body), "sub_1", "sub_2", 1)), payments.ErrBadSignature},
		{"another api version", "", []byte(strings.Replace(string(body), `"api_version":"`+stripeAPIVersion(t, body)+`"`, `"api_version":"2020-08-27"`, 1)), payments.ErrBadEvent},
		{"not json", "", []byte("not json"), payments.ErrBadEvent},
	}
	for _, b := range bad {
		h := b.header
		if h == "" && b.want == payments.ErrBadEvent {
			h = payments.Sign(b.body, secret, now)
		}
		if _, err := c.Verify(b.body, h); !errors.Is(err, b.want) {
			t.Errorf("%s: %v, want %v", b.name, err, b.want)
		}
	}
}

func stripeAPIVersion(t *testing.T, body []byte) string {
	var e struct {
		APIVersion string `json:"api_version"`
	}
	if err := json.Unmarshal(body, &e); err != nil || e.APIVersion == "" {
		t.Fatalf("no api_version in %s", body)
	}
	return e.APIVersion
}
