package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/httpapi/openapi"
	"agora/internal/adapters/payments"
	"agora/internal/plumbing/config"
	"agora/projections/realtime"
)

// The paid communities and forums of issue 19, on the test binary's
// stripe-mock (the harness's), with Stripe's events signed as Stripe signs
// them (payments.Sign: stripe-go's webhook.GenerateTestSignedPayload) or
// sent by the dev checkout page's Pay.

type paidForumBody struct {
	ID            string `json:"id"`
	IsSubscribed  bool   `json:"isSubscribed"`
	IsFree        bool   `json:"isFree"`
	Price         int    `json:"price"`
	Currency      string `json:"currency"`
	MainChannelID string `json:"mainChannelId"`
	Context       struct {
		CommunityID string `json:"communityId"`
	} `json:"context"`
}

type checkoutBody struct {
	ID    string `json:"id"`
	URL   string `json:"url"`
	Items []struct {
		ProductID string `json:"productId"`
		Kind      string `json:"kind"`
		Name      string `json:"name"`
		Price     int    `json:"price"`
		Currency  string `json:"currency"`
	} `json:"items"`
}

type subscriptionBody struct {
	ID                string  `json:"id"`
	ProductID         string  `json:"productId"`
	Kind              string  `json:"kind"`
	Name              string  `json:"name"`
	CommunityID       string  `json:"communityId"`
	Status            string  `json:"status"`
	HasAccess         bool    `json:"hasAccess"`
	CurrentPeriodEnd  *string `json:"currentPeriodEnd"`
	CancelAtPeriodEnd bool    `json:"cancelAtPeriodEnd"`
	Price             int     `json:"price"`
}

// paid is a forum of a fresh community priced cents a month, made by the
// demo admin through the API, and a member of both who has not paid.
type paid struct {
	admin     *testenv.Client
	community string
	forum     paidForumBody
	member    member
}

func newPaidForum(t *testing.T, env *testenv.Env, cents int) paid {
	t.Helper()
	p := paid{admin: env.As(t, adminEmail), community: newCommunity(t, env)}
	r := p.admin.Do("POST", "/api/communities/"+p.community+"/series", map[string]any{
		"name": testenv.Unique("Paid"), "description": "A paid forum", "price": cents, "isFree": false,
	})
	wantStatus(t, r, 201)
	r.JSON(t, &p.forum)
	if p.forum.IsFree || p.forum.Price != cents || p.forum.Currency != "USD" || !p.forum.IsSubscribed {
		t.Fatalf("the paid forum as its admin sees it: %+v", p.forum)
	}
	p.member = fresh(t, env, p.community, "Payer")
	wantStatus(t, assign(t, p.admin, p.forum.ID, "member", p.member.ProfileID), 204)
	return p
}

// forumOf reads a forum as c.
func forumOf(t *testing.T, c *testenv.Client, id string) paidForumBody {
	t.Helper()
	r := c.Do("GET", "/api/series/"+id, nil)
	wantStatus(t, r, 200)
	var f paidForumBody
	r.JSON(t, &f)
	return f
}

// feedStatus is what c gets for the forum's posts.
func feedStatus(t *testing.T, c *testenv.Client, f paidForumBody) int {
	t.Helper()
	return c.Do("GET", "/api/channels/"+f.MainChannelID+"/threads", nil).Status
}

func checkout(t *testing.T, c *testenv.Client, product string) checkoutBody {
	t.Helper()
	r := c.Do("POST", "/api/checkout-sessions", map[string]any{"productId": product})
	wantStatus(t, r, 201)
	var s checkoutBody
	r.JSON(t, &s)
	return s
}

// pay follows the dev checkout page as a browser does: it opens it, posts
// its Pay form, and answers where it was sent.
func pay(t *testing.T, env *testenv.Env, s checkoutBody) string {
	t.Helper()
	path := strings.TrimPrefix(s.URL, env.URL)
	if !strings.HasPrefix(path, "/api/dev/checkout/") {
		t.Fatalf("the session's URL %q is not the dev checkout page", s.URL)
	}
	page := env.Client(t).Do("GET", path, nil)
	wantStatus(t, page, 200)
	for _, want := range []string{`<button type="submit">Pay</button>`, `>Cancel</a>`, s.Items[0].Name} {
		if !strings.Contains(string(page.Body), want) {
			t.Errorf("the dev checkout page lacks %q:\n%s", want, page.Body)
		}
	}
	r := env.Client(t).Do("POST", path, nil)
	wantStatus(t, r, 303)
	return r.Header.Get("Location")
}

func subscriptionsOf(t *testing.T, c *testenv.Client) []subscriptionBody {
	t.Helper()
	r := c.Do("GET", "/api/subscriptions", nil)
	wantStatus(t, r, 200)
	var page struct {
		Results []subscriptionBody `json:"results"`
		Total   int                `json:"total"`
	}
	r.JSON(t, &page)
	if page.Total != len(page.Results) {
		t.Errorf("total %d for %d results", page.Total, len(page.Results))
	}
	return page.Results
}

// signed posts a Stripe event to the webhook, signed with secret at at.
func signed(t *testing.T, env *testenv.Env, body []byte, secret string, at time.Time) *testenv.Response {
	t.Helper()
	c := env.Client(t)
	c.Header = http.Header{"Stripe-Signature": {payments.Sign(body, secret, at)}}
	return c.Do("POST", "/api/stripe/webhook", body)
}

// stripeSend posts a Stripe event signed with the server's webhook secret now,
// and answers its result.
func stripeSend(t *testing.T, env *testenv.Env, body []byte) string {
	t.Helper()
	r := signed(t, env, body, env.Config.Stripe.WebhookSecret, time.Now())
	wantStatus(t, r, 200)
	var ack struct {
		Result string `json:"result"`
	}
	r.JSON(t, &ack)
	return ack.Result
}

// state is a subscription of one forum, as events show it.
func state(p paid, sub string, status string, periodEnd time.Time) payments.SubscriptionState {
	return payments.SubscriptionState{ID: sub, CustomerID: "cus_test", UserID: uuid.MustParse(p.member.UserID), Status: status, PeriodEnd: periodEnd,
		Items: []payments.StateItem{{Product: payments.Product{ID: uuid.MustParse(p.forum.ID), Kind: payments.KindForum, Name: "Paid"},
			PriceID: "price_test", AmountCents: p.forum.Price}}}
}

// TestPaidForumOpensAfterPayment: a member of a paid forum sees it with
// isSubscribed false and none of its posts; checkout answers the dev
// checkout page, whose Pay sends the signed events to the webhook; then
// the forum is open, the subscription listed, and the member's browser
// heard user.subscription.created (through the relay, the broker and the
// realtime projection), which nobody else hears.
func TestPaidForumOpensAfterPayment(t *testing.T) {
	pipe := testenv.StartPipeline(t)
	env := testenv.NewLive(t, testenv.Live{Pipeline: pipe})
	p := newPaidForum(t, env, 1500)
	m := p.member.Client
	other := fresh(t, env, p.community, "Bystander")
	mh, oh := dial(t, env, "", bearer(m.Token)), dial(t, env, "", bearer(other.Client.Token))
	mh.t, oh.t = t, t

	f := forumOf(t, m, p.forum.ID)
	if f.IsSubscribed || f.IsFree || f.Price != 1500 {
		t.Fatalf("before payment the member sees %+v", f)
	}
	if s := feedStatus(t, m, f); s != 404 {
		t.Errorf("before payment the member reads the posts: %d", s)
	}
	if s := feedStatus(t, p.admin, f); s != 200 {
		t.Errorf("the admin, who never pays, reads the posts: %d", s)
	}
	var community struct {
		IsSubscribed bool `json:"isSubscribed"`
		Series       []struct {
			ID           string `json:"id"`
			IsSubscribed bool   `json:"isSubscribed"`
		} `json:"series"`
	}
	r := m.Do("GET", "/api/communities/"+p.community, nil)
	wantStatus(t, r, 200)
	r.JSON(t, &community)
	if !community.IsSubscribed || len(community.Series) != 1 || community.Series[0].ID != p.forum.ID || community.Series[0].IsSubscribed {
		t.Errorf("the free community and its paid forum: %+v", community)
	}
	if subs := subscriptionsOf(t, m); len(subs) != 0 {
		t.Errorf("subscriptions before checkout: %+v", subs)
	}

	s := checkout(t, m, p.forum.ID)
	if !strings.HasPrefix(s.ID, "cs_") || len(s.Items) != 1 || s.Items[0].ProductID != p.forum.ID || s.Items[0].Kind != "forum" ||
		s.Items[0].Price != 1500 || s.Items[0].Currency != "USD" {
		t.Fatalf("session %+v", s)
	}
	back := pay(t, env, s)
	u, err := url.Parse(back)
	if err != nil || u.Path != "/communities/"+p.community+"/series/"+p.forum.ID || u.Query().Get("checkout") != "success" ||
		u.Query().Get("session_id") != s.ID {
		t.Errorf("Pay sent the browser to %q", back)
	}

	msg := mh.waitFor(liveWait, "user.subscription.created at the member", is(realtime.SubscriptionCreated, "user:"+p.member.UserID))
	payload, _ := json.Marshal(msg.Data.Payload)
	if err := openapi.ValidateSchema("LiveSubscriptionCreated", payload); err != nil {
		t.Errorf("%v: %s", err, payload)
	}
	if msg.Payload["productId"] != p.forum.ID || msg.Payload["kind"] != "forum" || msg.Payload["communityId"] != p.community {
		t.Errorf("payload %s", msg.Raw)
	}
	oh.none(time.Second, "another member hears of the subscription", func(m hubMsg) bool { return m.Event == realtime.SubscriptionCreated })

	if f := forumOf(t, m, p.forum.ID); !f.IsSubscribed {
		t.Errorf("after payment the member sees %+v", f)
	}
	if s := feedStatus(t, m, f); s != 200 {
		t.Errorf("after payment the member reads the posts: %d", s)
	}
	subs := subscriptionsOf(t, m)
	if len(subs) != 1 || subs[0].ProductID != p.forum.ID || subs[0].Kind != "forum" || subs[0].Status != "active" || !subs[0].HasAccess ||
		subs[0].Price != 1500 || subs[0].CurrentPeriodEnd == nil || subs[0].CancelAtPeriodEnd || subs[0].CommunityID != p.community {
		t.Errorf("subscriptions after payment: %+v", subs)
	}
	// Paying twice changes nothing; checking out again is refused.
	if again := pay(t, env, s); again != back {
		t.Errorf("a second Pay went to %q", again)
	}
	wantError(t, m.Do("POST", "/api/checkout-sessions", map[string]any{"productId": p.forum.ID}), 409, "alreadySubscribed")
	if n := env.Count(t, "subscriptions", "user_id = $1", p.member.UserID); n != 1 {
		t.Errorf("%d subscription rows", n)
	}
	// The portal: on stripe-mock, the subscriptions page itself.
	r = m.Do("POST", "/api/billing-portal-sessions", nil)
	wantStatus(t, r, 201)
	var portal struct {
		URL string `json:"url"`
	}
	r.JSON(t, &portal)
	if portal.URL != env.URL+"/subscriptions" {
		t.Errorf("portal %s", r.Body)
	}
}

// TestPaidCommunityAndForumOneSession: a forum of a paid community, to
// which the member has access to neither, is one session of two items,
// the community first; once paid both are open, two entries of one
// subscription.
func TestPaidCommunityAndForumOneSession(t *testing.T) {
	env := testenv.New(t)
	p := newPaidForum(t, env, 1500)
	wantStatus(t, p.admin.Do("PATCH", "/api/communities/"+p.community, map[string]any{"isFree": false, "price": 2000}), 204)
	m := p.member.Client
	var c struct {
		IsSubscribed bool `json:"isSubscribed"`
	}
	m.Do("GET", "/api/communities/"+p.community, nil).JSON(t, &c)
	if c.IsSubscribed {
		t.Error("the member has access to the paid community before paying")
	}
	s := checkout(t, m, p.forum.ID)
	if len(s.Items) != 2 || s.Items[0].ProductID != p.community || s.Items[0].Kind != "community" || s.Items[0].Price != 2000 ||
		s.Items[1].ProductID != p.forum.ID || s.Items[1].Price != 1500 {
		t.Fatalf("items %+v", s.Items)
	}
	pay(t, env, s)
	m.Do("GET", "/api/communities/"+p.community, nil).JSON(t, &c)
	if !c.IsSubscribed || !forumOf(t, m, p.forum.ID).IsSubscribed {
		t.Error("the community or the forum is still closed after payment")
	}
	subs := subscriptionsOf(t, m)
	if len(subs) != 2 || subs[0].ID != subs[1].ID || !subs[0].HasAccess || !subs[1].HasAccess {
		t.Errorf("subscriptions %+v", subs)
	}
	// The community alone, paid now: nothing left to pay.
	wantError(t, m.Do("POST", "/api/checkout-sessions", map[string]any{"productId": p.community}), 409, "alreadySubscribed")
}

// TestCanceledClosesAtPeriodEnd: a subscription canceled at the period's
// end gives access until then and none after; a past-due one keeps access
// for the grace period; a deleted event before its created leaves none.
func TestCanceledClosesAtPeriodEnd(t *testing.T) {
	const grace = 2 * time.Second
	env := testenv.New(t, func(c *config.Config) { c.Stripe.GracePeriod = grace })
	p := newPaidForum(t, env, 990)
	m := p.member.Client
	sub := payments.NewID("sub")
	start := time.Now().Add(-time.Minute)
	st := state(p, sub, payments.StatusActive, time.Now().AddDate(0, 1, 0))
	if got := stripeSend(t, env, payments.SubscriptionEvent(payments.NewID("evt"), payments.EventSubscriptionCreated, start, st)); got != "applied" {
		t.Fatalf("created: %s", got)
	}
	if !forumOf(t, m, p.forum.ID).IsSubscribed {
		t.Fatal("no access after customer.subscription.created")
	}
	// Canceled in the portal: active to the period's end, which is near.
	periodEnd := time.Now().Add(3 * time.Second).Truncate(time.Second)
	st.CancelAtPeriodEnd, st.PeriodEnd = true, periodEnd
	stripeSend(t, env, payments.SubscriptionEvent(payments.NewID("evt"), payments.EventSubscriptionUpdated, start.Add(time.Second), st))
	if !forumOf(t, m, p.forum.ID).IsSubscribed {
		t.Error("no access before the period's end")
	}
	subs := subscriptionsOf(t, m)
	if len(subs) != 1 || !subs[0].CancelAtPeriodEnd || !subs[0].HasAccess {
		t.Errorf("subscriptions %+v", subs)
	}
	time.Sleep(time.Until(periodEnd) + 500*time.Millisecond)
	f := forumOf(t, m, p.forum.ID)
	if f.IsSubscribed || feedStatus(t, m, f) != 404 {
		t.Error("access after the period's end")
	}
	// Stripe's deleted event at the period's end: canceled, no access.
	st.Status, st.EndedAt = payments.StatusCanceled, periodEnd
	stripeSend(t, env, payments.SubscriptionEvent(payments.NewID("evt"), payments.EventSubscriptionDeleted, periodEnd, st))
	if subs := subscriptionsOf(t, m); len(subs) != 1 || subs[0].Status != "canceled" || subs[0].HasAccess {
		t.Errorf("subscriptions after deletion %+v", subs)
	}
	// A late update of before the cancellation changes nothing.
	st.Status, st.EndedAt, st.CancelAtPeriodEnd = payments.StatusActive, time.Time{}, false
	if got := stripeSend(t, env, payments.SubscriptionEvent(payments.NewID("evt"), payments.EventSubscriptionUpdated, start.Add(2*time.Second), st)); got != "stale" {
		t.Errorf("an update after the deletion: %s", got)
	}
	if forumOf(t, m, p.forum.ID).IsSubscribed {
		t.Error("a stale update reopened the forum")
	}

	t.Run("deleted before created", func(t *testing.T) {
		p := newPaidForum(t, env, 990)
		sub := payments.NewID("sub")
		created := time.Now().Add(-10 * time.Second)
		st := state(p, sub, payments.StatusCanceled, time.Now().AddDate(0, 1, 0))
		st.EndedAt = time.Now().Add(-5 * time.Second)
		if got := stripeSend(t, env, payments.SubscriptionEvent(payments.NewID("evt"), payments.EventSubscriptionDeleted, st.EndedAt, st)); got != "applied" {
			t.Errorf("deleted: %s", got)
		}
		st.Status, st.EndedAt = payments.StatusActive, time.Time{}
		if got := stripeSend(t, env, payments.SubscriptionEvent(payments.NewID("evt"), payments.EventSubscriptionCreated, created, st)); got != "stale" {
			t.Errorf("created after deleted: %s", got)
		}
		if forumOf(t, p.member.Client, p.forum.ID).IsSubscribed {
			t.Error("a created after its deleted opened the forum")
		}
	})

	t.Run("past due keeps access for the grace period", func(t *testing.T) {
		p := newPaidForum(t, env, 990)
		st := state(p, payments.NewID("sub"), payments.StatusActive, time.Now().AddDate(0, 1, 0))
		stripeSend(t, env, payments.SubscriptionEvent(payments.NewID("evt"), payments.EventSubscriptionCreated, time.Now().Add(-time.Minute), st))
		failedAt := time.Now()
		if got := stripeSend(t, env, payments.PaymentFailedEvent(payments.NewID("evt"), failedAt, st)); got != "applied" {
			t.Errorf("payment failed: %s", got)
		}
		if subs := subscriptionsOf(t, p.member.Client); len(subs) != 1 || subs[0].Status != "past_due" || !subs[0].HasAccess {
			t.Errorf("past due: %+v", subs)
		}
		time.Sleep(time.Until(failedAt.Truncate(time.Second).Add(grace)) + 500*time.Millisecond)
		if forumOf(t, p.member.Client, p.forum.ID).IsSubscribed {
			t.Error("access after the grace period")
		}
	})
}

// TestPriceChangeKeepsSubscribersPrices: a price change makes a new Stripe
// Price for the checkouts after it; a subscriber keeps the price they
// subscribed at, their renewals too; going back to an old amount reuses
// its Price.
func TestPriceChangeKeepsSubscribersPrices(t *testing.T) {
	env := testenv.New(t)
	p := newPaidForum(t, env, 1500)
	first := checkout(t, p.member.Client, p.forum.ID)
	pay(t, env, first)
	priceOf := func(cents int) string {
		return queryString(t, env, "SELECT stripe_price_id FROM billing_prices WHERE product_id = $1 AND amount_cents = $2", p.forum.ID, cents)
	}
	old := priceOf(1500)

	r := p.admin.Do("PATCH", "/api/series/"+p.forum.ID, map[string]any{"price": 2500})
	wantStatus(t, r, 200)
	later := fresh(t, env, p.community, "Later")
	wantStatus(t, assign(t, p.admin, p.forum.ID, "member", later.ProfileID), 204)
	second := checkout(t, later.Client, p.forum.ID)
	if second.Items[0].Price != 2500 {
		t.Errorf("the new checkout's price %d", second.Items[0].Price)
	}
	pay(t, env, second)
	if priceOf(2500) == old {
		t.Error("the new price reuses the old Stripe Price")
	}
	if s := subscriptionsOf(t, p.member.Client); len(s) != 1 || s[0].Price != 1500 {
		t.Errorf("the first subscriber's price after the change: %+v", s)
	}
	if s := subscriptionsOf(t, later.Client); len(s) != 1 || s[0].Price != 2500 {
		t.Errorf("the later subscriber's price: %+v", s)
	}
	var sub, stripePrice string
	if err := env.DB.Pool.QueryRow(t.Context(), "SELECT id, stripe_price_id FROM subscriptions WHERE user_id = $1", p.member.UserID).Scan(&sub, &stripePrice); err != nil {
		t.Fatal(err)
	}
	if stripePrice != old {
		t.Errorf("the first subscription's Price %s, want %s", stripePrice, old)
	}
	// Its renewal, as Stripe sends it, is at its own Price.
	st := state(p, sub, payments.StatusActive, time.Now().AddDate(0, 2, 0))
	st.Items[0].PriceID, st.Items[0].AmountCents = old, 1500
	stripeSend(t, env, payments.SubscriptionEvent(payments.NewID("evt"), payments.EventSubscriptionUpdated, time.Now(), st))
	if s := subscriptionsOf(t, p.member.Client); len(s) != 1 || s[0].Price != 1500 || !s[0].HasAccess {
		t.Errorf("after the renewal: %+v", s)
	}
	// Back to 1500: the old Price again, no third one.
	wantStatus(t, p.admin.Do("PATCH", "/api/series/"+p.forum.ID, map[string]any{"price": 1500}), 200)
	third := fresh(t, env, p.community, "Third")
	wantStatus(t, assign(t, p.admin, p.forum.ID, "member", third.ProfileID), 204)
	checkout(t, third.Client, p.forum.ID)
	if n := env.Count(t, "billing_prices", "product_id = $1", p.forum.ID); n != 2 {
		t.Errorf("%d Prices for two amounts", n)
	}
}

// TestCheckoutBadInput: bad input is a 4xx with its catalogue code, and
// nothing is written (no session, no customer, no product).
func TestCheckoutBadInput(t *testing.T) {
	env := testenv.New(t)
	p := newPaidForum(t, env, 1500)
	free := createForum(t, p.admin, p.community)
	wantStatus(t, assign(t, p.admin, free.ID, "member", p.member.ProfileID), 204)
	m := p.member.Client
	written := func() string {
		return queryString(t, env, `SELECT concat_ws('|', (SELECT count(*) FROM checkout_sessions WHERE user_id = $1),
			(SELECT count(*) FROM billing_customers WHERE user_id = $1), (SELECT count(*) FROM billing_products WHERE product_id = $2))`,
			p.member.UserID, p.forum.ID)
	}
	before := written()
	for _, c := range []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"no product", map[string]any{}, 400, "parametersMissingException"},
		{"not a UUID", map[string]any{"productId": "forum"}, 400, "validationFailed"},
		{"a number", map[string]any{"productId": 42}, 400, "invalidBody"},
		{"an unknown field", map[string]any{"productId": p.forum.ID, "price": 1}, 400, "invalidBody"},
		{"not JSON", "{", 400, "invalidBody"},
		{"an unknown product", map[string]any{"productId": uuid.NewString()}, 404, "notFound"},
		{"a forum of another community", map[string]any{"productId": seriesID(t, env, roundtableForum)}, 404, "notFound"},
		{"a free forum", map[string]any{"productId": free.ID}, 409, "productFree"},
		{"a free community", map[string]any{"productId": p.community}, 409, "productFree"},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, m.Do("POST", "/api/checkout-sessions", c.body), c.status, c.code)
		})
	}
	if after := written(); after != before {
		t.Errorf("refused checkouts wrote: %s, then %s", before, after)
	}
	wantError(t, m.Do("POST", "/api/billing-portal-sessions", nil), 409, "noBillingAccount")
	wantError(t, env.Client(t).Do("POST", "/api/checkout-sessions", map[string]any{"productId": p.forum.ID}), 401, "authenticationRequired")

	// The webhook: a body that is no event, signed, is invalidBody; an
	// unsigned or badly signed one tokenInvalid; nothing is recorded.
	events := env.Count(t, "stripe_events", "")
	wantError(t, signed(t, env, []byte(`{"not":"an event"}`), env.Config.Stripe.WebhookSecret, time.Now()), 400, "invalidBody")
	wantError(t, env.Client(t).Do("POST", "/api/stripe/webhook", map[string]any{"id": "evt_1"}), 401, "tokenInvalid")
	if n := env.Count(t, "stripe_events", ""); n != events {
		t.Errorf("refused webhooks recorded %d events", n-events)
	}
}
