package httpapi_test

import (
	"testing"

	"agora/app/testenv"
)

// TestMatrixBilling: the billing calls by each role of the feed's matrix
// (feed_matrix_test.go) on a paid forum whose members (the creator and the
// member) have not paid: they see it, not its posts, and may check out;
// its admins never pay; the others do not know it. Refusals write nothing
// (no session, customer, subscription or event).
func TestMatrixBilling(t *testing.T) {
	env := testenv.New(t)
	m := newMatrixForum(t, env)
	wantStatus(t, m.root.Do("PATCH", "/api/series/"+m.forum.ID, map[string]any{"isFree": false, "price": 2900}), 200)
	digest := func(t *testing.T) string {
		return m.digest(t) + queryString(t, env, `SELECT concat_ws('|', (SELECT count(*) FROM checkout_sessions),
			(SELECT count(*) FROM billing_customers), (SELECT count(*) FROM subscriptions), (SELECT count(*) FROM stripe_events),
			(SELECT count(*) FROM billing_products), (SELECT count(*) FROM billing_prices))`)
	}
	everyone := func(o outcome) map[string]outcome {
		return map[string]outcome{"creator": o, "member": o, "forum admin": o, "community admin": o, "non-member": o, "outsider": o, "guest": o}
	}
	alreadySubscribed := outcome{409, "alreadySubscribed"}
	noAccount := outcome{409, "noBillingAccount"}
	runMatrix(t, m.roles(), digest, []matrixCall{
		{"read the paid forum", "GET", fixed("/api/series/" + m.forum.ID), nil, readers(200, hidden)},
		{"read its posts", "GET", fixed("/api/channels/" + m.main + "/threads"), nil, map[string]outcome{
			"creator": hidden, "member": hidden, "forum admin": allowed(200), "community admin": allowed(200),
			"non-member": hidden, "outsider": hidden, "guest": guestRefused}},
		{"check out the forum", "POST", fixed("/api/checkout-sessions"), map[string]any{"productId": m.forum.ID}, map[string]outcome{
			"creator": allowed(201), "member": allowed(201), "forum admin": alreadySubscribed, "community admin": alreadySubscribed,
			"non-member": hidden, "outsider": hidden, "guest": guestRefused}},
		{"check out its free community", "POST", fixed("/api/checkout-sessions"), map[string]any{"productId": m.community}, map[string]outcome{
			"creator": {409, "productFree"}, "member": {409, "productFree"}, "forum admin": {409, "productFree"},
			"community admin": alreadySubscribed, "non-member": {409, "productFree"}, "outsider": hidden, "guest": guestRefused}},
		{"list one's subscriptions", "GET", fixed("/api/subscriptions"), nil, map[string]outcome{
			"creator": allowed(200), "member": allowed(200), "forum admin": allowed(200), "community admin": allowed(200),
			"non-member": allowed(200), "outsider": allowed(200), "guest": guestRefused}},
		{"open the customer portal", "POST", fixed("/api/billing-portal-sessions"), nil, map[string]outcome{
			"creator": allowed(201), "member": allowed(201), "forum admin": noAccount, "community admin": noAccount,
			"non-member": noAccount, "outsider": noAccount, "guest": guestRefused}},
		{"post an unsigned webhook", "POST", fixed("/api/stripe/webhook"), map[string]any{"id": "evt_matrix", "object": "event"}, everyone(outcome{401, "tokenInvalid"})},
	})
	// The creator's and the member's isSubscribed, which the forum's
	// admins have.
	for _, r := range m.roles()[:4] {
		want := r.name == "forum admin" || r.name == "community admin"
		if got := forumOf(t, r.c, m.forum.ID).IsSubscribed; got != want {
			t.Errorf("%s: isSubscribed %v, want %v", r.name, got, want)
		}
	}
}
