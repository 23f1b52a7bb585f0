package httpapi_test

import (
	"crypto/sha256"
	"encoding/base64"
	"html"
	"io"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"agora/app/testenv"
	"agora/internal/adapters/webpush/pushtest"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/config"
	"agora/internal/plumbing/vapid"
)

// withPush turns push on with a fresh key pair and starts a test push
// service, whose loopback address the server may reach (exactly).
func withPush(t *testing.T) (func(*config.Config), *pushtest.Service) {
	t.Helper()
	keys, err := vapid.GenerateKeys()
	if err != nil {
		t.Fatal(err)
	}
	svc := pushtest.Start(t, keys.Public)
	allow := testenv.AllowOutbound(svc.Addr())
	return func(c *config.Config) {
		c.Push = config.PushConfig{PublicKey: keys.Public, PrivateKey: keys.Private, Subject: "mailto:ops@agora.test"}
		allow(c)
	}, svc
}

// pushDigest fingerprints the push subscriptions and personalizations.
func pushDigest(t *testing.T, env *testenv.Env) string {
	t.Helper()
	return queryString(t, env, `SELECT md5(concat_ws('|',
		(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM push_subscriptions x),
		(SELECT string_agg(x::text, ',' ORDER BY x.user_id) FROM user_personalization x)))`)
}

// TestMatrixPush: the push calls by role (super, organization admin,
// community admin, member, outsider, guest): the key is public, a browser
// is kept for any signed-in caller, and nothing is written on a refusal.
func TestMatrixPush(t *testing.T) {
	opt, svc := withPush(t)
	env := testenv.New(t, opt)
	m := newMatrixCommunity(t, env)
	m.community(t)
	roles := []matrixRole{{"super", m.super}, {"org admin", m.orgAdmin}, {"community admin", m.commAdmin},
		{"member", m.member}, {"outsider", m.outsider}, {"guest", m.guest}}
	all := func(ok outcome) map[string]outcome {
		return map[string]outcome{"super": ok, "org admin": ok, "community admin": ok, "member": ok, "outsider": ok, "guest": guestRefused}
	}
	sub := svc.Subscribe(t)
	calls := []matrixCall{
		{"read the key", "GET", fixed("/api/push/key"), nil, map[string]outcome{"super": allowed(200), "org admin": allowed(200),
			"community admin": allowed(200), "member": allowed(200), "outsider": allowed(200), "guest": allowed(200)}},
		{"subscribe", "POST", fixed("/api/push/subscriptions"), sub, all(allowed(201))},
		{"subscribe an ftp endpoint", "POST", fixed("/api/push/subscriptions"),
			map[string]any{"endpoint": "ftp://push.example/x", "keys": sub.Keys}, all(outcome{400, "validationFailed"})},
		{"subscribe without keys", "POST", fixed("/api/push/subscriptions"), map[string]any{"endpoint": sub.Endpoint},
			all(outcome{400, "parametersMissingException"})},
		{"unsubscribe", "DELETE", fixed("/api/push/subscriptions"), map[string]any{"endpoint": sub.Endpoint}, all(allowed(204))},
	}
	runMatrix(t, roles, func(t *testing.T) string { return pushDigest(t, env) }, calls)

	var key struct{ PublicKey string }
	r := env.Client(t).Do("GET", "/api/push/key", nil)
	r.JSON(t, &key)
	if key.PublicKey != env.Config.Push.PublicKey {
		t.Errorf("key %q, want %q", key.PublicKey, env.Config.Push.PublicKey)
	}
}

// TestPushSubscriptionBelongsToOneMember: subscribing keeps the browser
// for the caller; another member who knows only its endpoint cannot take
// it (issue 31, G10: 409 pushEndpointTaken, nothing changed), while the
// same browser subscription, keys and all, moves to the member now signed
// in there; a member cannot remove another's browser (answered the same,
// and nothing is deleted); the owner can.
func TestPushSubscriptionBelongsToOneMember(t *testing.T) {
	opt, svc := withPush(t)
	env := testenv.New(t, opt)
	a, b := newMember(t, env, "PushA"), newMember(t, env, "PushB")
	sub := svc.Subscribe(t)
	owner := func() string {
		return queryString(t, env, "SELECT coalesce((SELECT user_id::text FROM push_subscriptions WHERE endpoint = $1), '')", sub.Endpoint)
	}
	wantStatus(t, a.Client.Do("POST", "/api/push/subscriptions", sub), 201)
	if owner() != a.UserID {
		t.Fatalf("owner %q, want A", owner())
	}
	wantStatus(t, b.Client.Do("DELETE", "/api/push/subscriptions", map[string]any{"endpoint": sub.Endpoint}), 204)
	if owner() != a.UserID {
		t.Fatal("B removed A's browser")
	}
	// B knows A's endpoint and sends keys of its own: refused.
	forged := svc.Subscribe(t)
	forged.Endpoint = sub.Endpoint
	before := pushDigest(t, env)
	wantError(t, b.Client.Do("POST", "/api/push/subscriptions", forged), 409, "pushEndpointTaken")
	if pushDigest(t, env) != before {
		t.Fatal("B's refused subscription changed A's")
	}
	// A's own browser again, with new keys, stays A's.
	wantStatus(t, a.Client.Do("POST", "/api/push/subscriptions", forged), 201)
	wantStatus(t, a.Client.Do("POST", "/api/push/subscriptions", sub), 201)
	if owner() != a.UserID {
		t.Fatalf("owner %q, want A", owner())
	}
	wantStatus(t, b.Client.Do("POST", "/api/push/subscriptions", sub), 201)
	if owner() != b.UserID {
		t.Fatalf("owner %q, want B after B subscribed the browser", owner())
	}
	wantStatus(t, b.Client.Do("DELETE", "/api/push/subscriptions", map[string]any{"endpoint": sub.Endpoint}), 204)
	if owner() != "" {
		t.Fatal("the browser is still kept")
	}
}

// TestPushRefusesPrivateEndpoints: unless AGORA_OUTBOUND_ALLOW names its
// address a loopback endpoint is refused and nothing kept; without VAPID keys push
// is unavailable.
func TestPushRefusesPrivateEndpoints(t *testing.T) {
	opt, svc := withPush(t)
	env := testenv.New(t, opt, func(c *config.Config) { c.OutboundAllow = "" })
	m := newMember(t, env, "PushPrivate")
	before := pushDigest(t, env)
	for _, endpoint := range []string{svc.Subscribe(t).Endpoint, "https://127.0.0.1/push/x", "https://[::1]/x", "https://10.1.2.3/x", "https://localhost/x"} {
		sub := svc.Subscribe(t)
		sub.Endpoint = endpoint
		e := wantError(t, m.Client.Do("POST", "/api/push/subscriptions", sub), 400, "validationFailed")
		if fields, _ := e.Details["fields"].(map[string]any); fields["endpoint"] == nil {
			t.Errorf("%s: details %v", endpoint, e.Details)
		}
	}
	if pushDigest(t, env) != before {
		t.Fatal("a refused subscription was kept")
	}

	off := testenv.New(t)
	wantError(t, off.Client(t).Do("GET", "/api/push/key", nil), 404, "pushUnavailable")
	member := newMember(t, off, "PushOff")
	wantError(t, member.Client.Do("POST", "/api/push/subscriptions", svc.Subscribe(t)), 404, "pushUnavailable")
}

// TestUnsubscribeLinkTurnsTheSettingOff: following a link's token (GET)
// answers a page naming the setting with a button and changes nothing (a
// mail scanner follows links); the page's form, posted as a browser would
// under the page's Content-Security-Policy, turns the setting off, keeps
// the member's other keys, and works again; no token is a 400 page, and an
// unknown one a 404 page, by GET or POST, that change nothing.
func TestUnsubscribeLinkTurnsTheSettingOff(t *testing.T) {
	env := testenv.New(t)
	m := newMember(t, env, "Unsub")
	wantStatus(t, m.Client.Do("PATCH", "/api/users/"+m.UserID+"/personalization", map[string]any{"notifications.timezone": "Europe/Paris"}), 200)
	token, hash := auth.NewToken()
	exec(t, env, "INSERT INTO unsubscribe_tokens (token_hash, user_id, setting) VALUES ($1, $2, 'notifications.digest.frequency')", hash, m.UserID)
	form := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}

	before := pushDigest(t, env)
	for _, r := range []struct {
		method, query, body string
		status              int
	}{
		{"GET", "", "", 400}, {"POST", "", "", 400},
		{"GET", "?token=nope", "", 404}, {"POST", "", "token=nope", 404}, {"POST", "?token=nope", "", 404},
	} {
		res := rawDo(t, env, r.method, "/api/notifications/unsubscribe"+r.query, form, r.body)
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != r.status || !strings.Contains(string(body), "not valid") {
			t.Fatalf("%s %s %s: %d %s", r.method, r.query, r.body, res.StatusCode, body)
		}
	}
	if pushDigest(t, env) != before {
		t.Fatal("a token not valid wrote")
	}

	r := env.Client(t).Do("GET", "/api/notifications/unsubscribe?token="+url.QueryEscape(token), nil)
	page := string(r.Body)
	if r.Status != 200 || !strings.Contains(page, "Stop receiving the digest of comments, replies and mentions?") {
		t.Fatalf("link: %d %s", r.Status, page)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("content type %q", ct)
	}
	if pushDigest(t, env) != before {
		t.Fatal("following the link turned the setting off")
	}
	// The page's policy lets its style and its form to this origin work.
	csp := r.Header.Get("Content-Security-Policy")
	style := regexp.MustCompile(`<style>(.*?)</style>`).FindStringSubmatch(page)
	if style == nil {
		t.Fatalf("no style: %s", page)
	}
	sum := sha256.Sum256([]byte(style[1]))
	if !strings.Contains(csp, "form-action 'self'") || !strings.Contains(csp, "style-src 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") {
		t.Errorf("policy %q does not allow the page's form and style", csp)
	}
	f := regexp.MustCompile(`<form method="post" action="([^"]+)"><input type="hidden" name="token" value="([^"]+)">`).FindStringSubmatch(page)
	if f == nil || html.UnescapeString(f[1]) != "/api/notifications/unsubscribe" {
		t.Fatalf("no form posting to the link's path: %s", page)
	}
	for range 2 {
		res := rawDo(t, env, "POST", html.UnescapeString(f[1]), form, url.Values{"token": {html.UnescapeString(f[2])}}.Encode())
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || !strings.Contains(string(body), "no longer receive the digest") {
			t.Fatalf("unsubscribe: %d %s", res.StatusCode, body)
		}
		var p map[string]any
		m.Client.Do("GET", "/api/users/"+m.UserID+"/personalization", nil).JSON(t, &p)
		if p["notifications.digest.frequency"] != "off" || p["notifications.timezone"] != "Europe/Paris" {
			t.Fatalf("personalization %v", p)
		}
	}
}

// TestUnsubscribeOneClick: a mail client's one-click unsubscribe (RFC 8058:
// a form post of List-Unsubscribe=One-Click to the link) turns the setting
// off as the link does.
func TestUnsubscribeOneClick(t *testing.T) {
	env := testenv.New(t)
	m := newMember(t, env, "OneClick")
	token, hash := auth.NewToken()
	exec(t, env, "INSERT INTO unsubscribe_tokens (token_hash, user_id, setting) VALUES ($1, $2, 'notifications.email.mentions')", hash, m.UserID)
	res := rawDo(t, env, "POST", "/api/notifications/unsubscribe?token="+url.QueryEscape(token),
		map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, "List-Unsubscribe=One-Click")
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("one-click: %d", res.StatusCode)
	}
	var p map[string]any
	m.Client.Do("GET", "/api/users/"+m.UserID+"/personalization", nil).JSON(t, &p)
	if p["notifications.email.mentions"] != false {
		t.Fatalf("personalization %v", p)
	}
}
