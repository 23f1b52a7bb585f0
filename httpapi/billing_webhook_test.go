package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"agora/app/testenv"
	"agora/httpapi/openapi"
	"agora/internal/adapters/payments"
)

// delivery is one POST of the webhook: a body and its Stripe-Signature.
type delivery struct {
	eventID  string
	body     []byte
	header   string
	tampered string // why it must be refused; empty for a good one
}

// TestWebhookDeliveries: 1,000 deliveries of Stripe events for twenty
// members' subscriptions (checkout, created, renewed, canceled at the
// period's end, past due, deleted; and events of a type Agora ignores),
// each good event delivered one to nine times, mixed with tampered ones
// (a changed body, another secret, an old signature, none, another
// scheme), all shuffled and sent eight at a time. Every tampered delivery
// is refused, each event is applied (or found stale, or ignored) exactly
// once and recorded once, the others are duplicates, and each
// subscription ends as its newest event says, whatever the order.
func TestWebhookDeliveries(t *testing.T) {
	env := testenv.New(t)
	p := newPaidForum(t, env, 1200)
	members := []member{p.member}
	for len(members) < 20 {
		m := fresh(t, env, p.community, "Payer")
		wantStatus(t, assign(t, p.admin, p.forum.ID, "member", m.ProfileID), 204)
		members = append(members, m)
	}
	secret := env.Config.Stripe.WebhookSecret
	rng := rand.New(rand.NewPCG(19, 1000))
	t0 := time.Now().Add(-time.Hour).Truncate(time.Second)
	periodEnd := time.Now().AddDate(0, 1, 0).Truncate(time.Second)

	type want struct {
		status      string
		cancelAtEnd bool
		access      bool
	}
	wants := map[string]want{} // by user id
	var good [][]byte          // one per unique event
	var ids []string
	add := func(id string, body []byte) {
		ids = append(ids, id)
		good = append(good, body)
	}
	for i, m := range members {
		pm := p
		pm.member = m
		st := state(pm, payments.NewID("sub"), payments.StatusActive, periodEnd)
		id := func() string { return payments.NewID("evt") }
		e := id()
		add(e, payments.CheckoutCompletedEvent(e, t0, payments.NewID("cs"), st, true))
		e = id()
		add(e, payments.SubscriptionEvent(e, payments.EventSubscriptionCreated, t0, st))
		e = id()
		add(e, []byte(strings.Replace(string(payments.SubscriptionEvent(e, payments.EventSubscriptionCreated, t0, st)),
			`"customer.subscription.created"`, `"customer.updated"`, 1))) // a type Agora ignores
		switch i % 4 {
		case 0: // renewed: active
			st.PeriodEnd = periodEnd.AddDate(0, 1, 0)
			e = id()
			add(e, payments.SubscriptionEvent(e, payments.EventSubscriptionUpdated, t0.Add(5*time.Second), st))
			wants[m.UserID] = want{"active", false, true}
		case 1: // canceled at the period's end, which is a month away
			st.CancelAtPeriodEnd = true
			e = id()
			add(e, payments.SubscriptionEvent(e, payments.EventSubscriptionUpdated, t0.Add(10*time.Second), st))
			wants[m.UserID] = want{"active", true, true}
		case 2: // a renewal's payment failed: past due, within the grace period
			e = id()
			add(e, payments.PaymentFailedEvent(e, t0.Add(20*time.Second), st))
			st.Status = payments.StatusPastDue
			e = id()
			add(e, payments.SubscriptionEvent(e, payments.EventSubscriptionUpdated, t0.Add(20*time.Second), st))
			wants[m.UserID] = want{"past_due", false, true}
		case 3: // deleted a minute ago: no access, whatever came after it
			e = id()
			add(e, payments.SubscriptionEvent(e, payments.EventSubscriptionUpdated, t0.Add(5*time.Second), st))
			st.Status, st.EndedAt = payments.StatusCanceled, time.Now().Add(-time.Minute).Truncate(time.Second)
			e = id()
			add(e, payments.SubscriptionEvent(e, payments.EventSubscriptionDeleted, t0.Add(30*time.Second), st))
			wants[m.UserID] = want{"canceled", false, false}
		}
	}

	const total = 1000
	now := time.Now()
	var ds []delivery
	for i, body := range good {
		for range 1 + rng.IntN(9) {
			ds = append(ds, delivery{eventID: ids[i], body: body, header: payments.Sign(body, secret, now)})
		}
	}
	tampers := []func(body []byte) (header string, sent []byte, why string){
		func(b []byte) (string, []byte, string) {
			changed := bytes.Replace(b, []byte(`"livemode":false`), []byte(`"livemode":true `), 1)
			return payments.Sign(b, secret, now), changed, "a body changed after signing"
		},
		func(b []byte) (string, []byte, string) {
			return payments.Sign(b, "whsec_another", now), b, "another secret"
		},
		func(b []byte) (string, []byte, string) {
			return payments.Sign(b, secret, now.Add(-6*time.Minute)), b, "an old signature"
		},
		func(b []byte) (string, []byte, string) { return "", b, "no signature" },
		func(b []byte) (string, []byte, string) {
			return strings.Replace(payments.Sign(b, secret, now), "v1=", "v0=", 1), b, "another scheme"
		},
	}
	if len(ds) > total*3/4 {
		t.Fatalf("%d good deliveries leave too few tampered ones", len(ds))
	}
	for i := 0; len(ds) < total; i++ {
		j := rng.IntN(len(good))
		h, b, why := tampers[i%len(tampers)](good[j])
		ds = append(ds, delivery{eventID: ids[j], body: b, header: h, tampered: why})
	}
	rng.Shuffle(len(ds), func(i, j int) { ds[i], ds[j] = ds[j], ds[i] })

	// Eight at a time, as Stripe retries and redeliveries overlap.
	out := make([]deliveryOutcome, len(ds))
	work := make(chan int)
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 30 * time.Second}
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				out[i] = deliver(client, env, ds[i])
			}
		}()
	}
	start := time.Now()
	for i := range ds {
		work <- i
	}
	close(work)
	wg.Wait()
	took := time.Since(start)

	counts := map[string]int{}
	refusedGood, acceptedBad := 0, 0
	for _, o := range out {
		if o.err != nil {
			t.Fatalf("delivery of %s: %v", o.d.eventID, o.err)
		}
		switch {
		case o.d.tampered != "" && o.status == 401:
			counts["refused"]++
		case o.d.tampered != "":
			acceptedBad++
			t.Errorf("%s (%s) was answered %d %s", o.d.eventID, o.d.tampered, o.status, o.result)
		case o.status == 200:
			counts[o.result]++
		default:
			refusedGood++
			t.Errorf("good delivery of %s answered %d", o.d.eventID, o.status)
		}
	}
	unique, good2 := len(good), len(ds)-counts["refused"]-acceptedBad
	t.Logf("%d deliveries in %v: %d good of %d events (%d applied, %d stale, %d ignored, %d duplicates), %d tampered refused, %d accepted",
		len(ds), took.Round(time.Millisecond), good2, unique, counts["applied"], counts["stale"], counts["ignored"], counts["duplicate"],
		counts["refused"], acceptedBad)
	if n := counts["applied"] + counts["stale"] + counts["ignored"]; n != unique {
		t.Errorf("%d events acted on, want each of %d once", n, unique)
	}
	if counts["duplicate"] != good2-unique {
		t.Errorf("%d duplicates, want %d", counts["duplicate"], good2-unique)
	}
	if n := env.Count(t, "stripe_events", "id = ANY($1)", ids); n != unique {
		t.Errorf("%d events recorded, want %d", n, unique)
	}
	if n := env.Count(t, "stripe_events", "id = ANY($1) AND result = 'ignored'", ids); n != len(members) {
		t.Errorf("%d ignored events recorded, want the %d of another type", n, len(members))
	}

	// Each subscription as its newest event says.
	for _, m := range members {
		w := wants[m.UserID]
		var status string
		var cancel, access bool
		if err := env.DB.Pool.QueryRow(t.Context(), `SELECT status, cancel_at_period_end, coalesce(access_until > now(), false)
			FROM subscriptions WHERE user_id = $1 AND product_id = $2`, m.UserID, p.forum.ID).Scan(&status, &cancel, &access); err != nil {
			t.Fatalf("%s: %v", m.Email, err)
		}
		if status != w.status || cancel != w.cancelAtEnd || access != w.access {
			t.Errorf("%s: %s, cancel at period end %v, access %v; want %+v", m.Email, status, cancel, access, w)
		}
		if f := forumOf(t, m.Client, p.forum.ID); f.IsSubscribed != w.access {
			t.Errorf("%s sees the forum with isSubscribed %v, want %v", m.Email, f.IsSubscribed, w.access)
		}
	}
}

// deliveryOutcome is what the webhook answered to a delivery.
type deliveryOutcome struct {
	d      delivery
	status int
	result string
	err    error
}

// deliver sends one delivery and reads its answer, checked against the
// contract (from a goroutine: no testing.T).
func deliver(client *http.Client, env *testenv.Env, d delivery) (o deliveryOutcome) {
	o.d = d
	req, err := http.NewRequest("POST", env.URL+"/api/stripe/webhook", bytes.NewReader(d.body))
	if err != nil {
		o.err = err
		return o
	}
	req.Header.Set("Content-Type", "application/json")
	if d.header != "" {
		req.Header.Set("Stripe-Signature", d.header)
	}
	res, err := client.Do(req)
	if err != nil {
		o.err = err
		return o
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		o.err = err
		return o
	}
	o.status = res.StatusCode
	if err := openapi.ValidateResponse("POST", "/api/stripe/webhook", res.StatusCode, res.Header.Get("Content-Type"), b); err != nil {
		o.err = fmt.Errorf("breaks the contract: %w: %s", err, b)
		return o
	}
	var ack struct {
		Result string `json:"result"`
	}
	if res.StatusCode == 200 {
		if err := json.Unmarshal(b, &ack); err != nil {
			o.err = err
		}
	}
	o.result = ack.Result
	return o
}
