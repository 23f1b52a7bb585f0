package httpapi_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fasthttp/websocket"

	"agora/app/testenv"
	"agora/httpapi"
	"agora/internal/plumbing/auth"
	"agora/live"
	"agora/projections/realtime"
	"agora/web"
)

// liveWait bounds how long a live event may take: the commit, the relay,
// the broker, and a new consumer group joining and reading its topics.
const liveWait = 20 * time.Second

// hubMsg is a received message and its raw text.
type hubMsg struct {
	live.Message
	Payload map[string]any
	Raw     string
}

// hubConn is a test's WebSocket client of GET /api/hub.
type hubConn struct {
	t      *testing.T
	conn   *websocket.Conn
	msgs   chan hubMsg
	closed chan struct{}
	err    error // why the read loop ended; read after closed
	// settings is the connection's first message.
	settings hubMsg
	// deployment is its second, the web app's build.
	deployment hubMsg
}

func hubURL(env *testenv.Env) string { return "ws" + strings.TrimPrefix(env.URL, "http") + "/api/hub" }

// dial opens the hub with header (and query), failing the test unless the
// handshake succeeds.
func dial(t *testing.T, env *testenv.Env, query string, header http.Header) *hubConn {
	t.Helper()
	conn, res, err := websocket.DefaultDialer.Dial(hubURL(env)+query, header)
	if err != nil {
		status := 0
		if res != nil {
			status = res.StatusCode
		}
		t.Fatalf("dial the hub: %v (status %d)", err, status)
	}
	h := &hubConn{t: t, conn: conn, msgs: make(chan hubMsg, 256), closed: make(chan struct{})}
	go func() {
		defer close(h.closed)
		for {
			_, frame, err := conn.ReadMessage()
			if err != nil {
				h.err = err
				return
			}
			for _, b := range live.Messages(frame) {
				var m hubMsg
				if err := json.Unmarshal(b, &m.Message); err != nil {
					h.err = err
					return
				}
				p, _ := json.Marshal(m.Data.Payload)
				_ = json.Unmarshal(p, &m.Payload)
				m.Raw = string(b)
				h.msgs <- m
			}
		}
	}()
	t.Cleanup(h.close)
	// Every connection begins with the presence settings.
	h.settings = h.waitFor(liveWait, "the presence settings", func(m hubMsg) bool { return true })
	if h.settings.Event != httpapi.HubPresenceSettings {
		t.Fatalf("first message %s, want %s", h.settings.Raw, httpapi.HubPresenceSettings)
	}
	// Then the build of the web app the node serves.
	h.deployment = h.waitFor(liveWait, "the deployment", anything)
	if h.deployment.Event != httpapi.HubDeploymentCompleted {
		t.Fatalf("second message %s, want %s", h.deployment.Raw, httpapi.HubDeploymentCompleted)
	}
	return h
}

// hubTicket asks for a ticket of c's session (POST /api/hub/tickets).
func hubTicket(t *testing.T, c *testenv.Client) string {
	t.Helper()
	r := c.Do("POST", "/api/hub/tickets", nil)
	if r.Status != 201 {
		t.Fatalf("POST /api/hub/tickets: %d %s", r.Status, r.Body)
	}
	var b struct {
		Ticket    string    `json:"ticket"`
		ExpiresOn time.Time `json:"expiresOn"`
	}
	r.JSON(t, &b)
	if b.Ticket == "" || !b.ExpiresOn.After(time.Now()) || b.ExpiresOn.After(time.Now().Add(time.Minute)) {
		t.Fatalf("ticket %s: want a ticket that expires within a minute", r.Body)
	}
	return b.Ticket
}

func bearer(token string) http.Header { return http.Header{"Authorization": {"Bearer " + token}} }
func cookie(token string) http.Header { return http.Header{"Cookie": {"user_token=" + token}} }

// close closes the connection as a browser tab does.
func (h *hubConn) close() {
	_ = h.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	_ = h.conn.Close()
	<-h.closed
}

// waitFor returns the first message that match accepts, failing after d.
func (h *hubConn) waitFor(d time.Duration, what string, match func(hubMsg) bool) hubMsg {
	h.t.Helper()
	timeout := time.After(d)
	for {
		select {
		case m := <-h.msgs:
			if match(m) {
				return m
			}
		case <-h.closed:
			h.t.Fatalf("waiting for %s: the connection closed: %v", what, h.err)
		case <-timeout:
			h.t.Fatalf("no %s within %v", what, d)
		}
	}
}

// none fails if a message that match accepts arrives within d.
func (h *hubConn) none(d time.Duration, what string, match func(hubMsg) bool) {
	h.t.Helper()
	timeout := time.After(d)
	for {
		select {
		case m := <-h.msgs:
			if match(m) {
				h.t.Errorf("unexpected %s: %s", what, m.Raw)
			}
		case <-timeout:
			for {
				select {
				case m := <-h.msgs:
					if match(m) {
						h.t.Errorf("unexpected %s: %s", what, m.Raw)
					}
				default:
					return
				}
			}
		}
	}
}

func is(event, key string) func(hubMsg) bool {
	return func(m hubMsg) bool { return m.Event == event && m.ContextKey == key }
}

func anything(hubMsg) bool { return true }

func hubUserID(t *testing.T, c *testenv.Client) string {
	t.Helper()
	var d struct {
		User struct {
			ID string `json:"id"`
		} `json:"user"`
	}
	r := c.Do("GET", "/api/tokens/decode", nil)
	if r.Status != 200 {
		t.Fatalf("decode: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &d)
	return d.User.ID
}

// TestHubDeployment: every connection is told the build of the web app
// its node serves, the id the served index.html carries, so that a tab of
// another build can offer to reload.
func TestHubDeployment(t *testing.T) {
	env := testenv.New(t)
	member := env.As(t, "member@demo.agora")
	files, built := web.Dist()
	want := web.BuildID(files)
	h := dial(t, env, "", bearer(member.Token))
	if got, _ := h.deployment.Payload["version"].(string); got != want || h.deployment.ContextKey != "user:"+hubUserID(t, member) {
		t.Errorf("deployment %s, want version %q", h.deployment.Raw, want)
	}
	if !built {
		t.Log("web/dist is not built: the page's build id is not checked")
		return
	}
	req, _ := http.NewRequest("GET", env.URL+"/home", nil)
	req.Header.Set("Accept", "text/html")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	page, _ := io.ReadAll(res.Body)
	if tag := `<meta name="agora-build" content="` + want + `">`; res.StatusCode != 200 || !strings.Contains(string(page), tag) {
		t.Errorf("GET /home: %d, want the page with %s", res.StatusCode, tag)
	}
}

// TestHub runs the hub end to end: writes through the API reach, through
// the relay, the broker and each node's realtime projection, the WebSocket
// clients of the members who may read them, and nobody else.
func TestHub(t *testing.T) {
	pipe := testenv.StartPipeline(t)
	live := testenv.Live{Pipeline: pipe, Hub: live.HubOptions{SessionCheck: 200 * time.Millisecond}}
	env := testenv.NewLive(t, live)

	member := env.As(t, "member@demo.agora")     // B
	expert := env.As(t, "expert@demo.agora")     // C: shares a community with B
	outsider := env.As(t, "outsider@demo.agora") // D: no community
	admin := env.As(t, "admin@demo.agora")
	expertID, adminID := hubUserID(t, expert), hubUserID(t, admin)

	// The three ways to authenticate.
	b := dial(t, env, "", cookie(member.Token))
	c := dial(t, env, "", bearer(expert.Token))
	d := dial(t, env, "?ticket="+hubTicket(t, outsider), nil)

	t.Run("a profile change reaches a member who may read it and nobody else", func(t *testing.T) {
		start := time.Now()
		job := testenv.Unique("job")
		if r := expert.Do("PATCH", "/api/users/me", map[string]any{"jobTitle": job}); r.Status != 200 {
			t.Fatalf("PATCH /api/users/me: %d %s", r.Status, r.Body)
		}
		b.t, c.t, d.t = t, t, t
		got := b.waitFor(liveWait, "user.updated for the expert", func(m hubMsg) bool {
			return is(realtime.UserUpdated, "user:"+expertID)(m) && m.Payload["jobTitle"] == job
		})
		t.Logf("user.updated reached another member %v after the write", time.Since(start).Round(time.Millisecond))
		if got.Type != "api:messages:broadcast" || got.Payload["id"] != expertID {
			t.Errorf("message %s", got.Raw)
		}
		for _, secret := range []string{"password", "hash", "email", "Email"} {
			if strings.Contains(got.Raw, secret) {
				t.Errorf("message %s contains %q", got.Raw, secret)
			}
		}
		// The author's own tabs hear of it too.
		c.waitFor(liveWait, "user.updated for oneself", is(realtime.UserUpdated, "user:"+expertID))
		// The outsider hears nothing at all, of this or of anyone's presence.
		d.none(2*time.Second, "message to the outsider", anything)
	})

	t.Run("presence: several tabs make one connected and one disconnected", func(t *testing.T) {
		c.t = t
		tab1 := dial(t, env, "", bearer(admin.Token))
		tab2 := dial(t, env, "", bearer(admin.Token))
		c.waitFor(liveWait, "user.connected", is(realtime.UserConnected, "user:"+adminID))
		c.none(1500*time.Millisecond, "second user.connected or early user.disconnected", func(m hubMsg) bool { return m.ContextKey == "user:"+adminID })
		tab1.close()
		c.none(1500*time.Millisecond, "presence event after one of two tabs closed", func(m hubMsg) bool { return m.ContextKey == "user:"+adminID })
		tab2.close()
		m := c.waitFor(liveWait, "user.disconnected", is(realtime.UserDisconnected, "user:"+adminID))
		if m.Payload["status"] != "offline" || m.Payload["userId"] != adminID {
			t.Errorf("message %s", m.Raw)
		}
		c.none(time.Second, "second user.disconnected", func(m hubMsg) bool { return m.ContextKey == "user:"+adminID })
	})

	t.Run("presence: tabs on two nodes make one connected and one disconnected on each", func(t *testing.T) {
		c.t = t
		env2 := testenv.NewLive(t, live)
		c2 := dial(t, env2, "", bearer(expert.Token)) // the observer on the second node
		tab1 := dial(t, env, "", bearer(admin.Token))
		tab2 := dial(t, env2, "", bearer(admin.Token))
		presence := func(m hubMsg) bool { return m.ContextKey == "user:"+adminID }
		c.waitFor(liveWait, "user.connected on the first node", is(realtime.UserConnected, "user:"+adminID))
		c2.waitFor(liveWait, "user.connected on the second node", is(realtime.UserConnected, "user:"+adminID))
		// One node's presence row is enough for user.connected: wait until
		// both nodes have written theirs (else closing tab1 races the other
		// write, which under load may be slow), and check that neither node
		// closed its tab.
		for deadline := time.Now().Add(liveWait); ; time.Sleep(20 * time.Millisecond) {
			var nodes int
			if err := env.DB.Pool.QueryRow(t.Context(), "SELECT coalesce((SELECT nodes FROM online_users WHERE user_id = $1::uuid), 0)", adminID).Scan(&nodes); err != nil {
				t.Fatal(err)
			}
			if nodes == 2 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the admin is online on %d nodes, want 2 (a tab on each)", nodes)
			}
		}
		for name, tab := range map[string]*hubConn{"the tab on the first node": tab1, "the tab on the second node": tab2} {
			select {
			case <-tab.closed:
				t.Fatalf("%s was closed by the node: %v", name, tab.err)
			default:
			}
		}
		c.none(time.Second, "second presence event on the first node", presence)
		c2.none(0, "second presence event on the second node", presence)
		tab1.close()
		c.none(1500*time.Millisecond, "presence event while a tab is open on the other node", presence)
		c2.none(0, "presence event while a tab is open on this node", presence)
		tab2.close()
		c.waitFor(liveWait, "user.disconnected on the first node", is(realtime.UserDisconnected, "user:"+adminID))
		c2.waitFor(liveWait, "user.disconnected on the second node", is(realtime.UserDisconnected, "user:"+adminID))
		c.none(time.Second, "second user.disconnected", presence)
		c2.none(0, "second user.disconnected", presence)
		var rows int
		if err := env.DB.Pool.QueryRow(t.Context(), "SELECT count(*) FROM online_users WHERE user_id = $1::uuid", adminID).Scan(&rows); err != nil || rows != 0 {
			t.Errorf("online_users rows for the admin: %d (%v), want 0", rows, err)
		}
	})

	t.Run("a signed-out session's connection is closed", func(t *testing.T) {
		again := env.As(t, "member@demo.agora")
		h := dial(t, env, "", bearer(again.Token))
		if r := again.Do("DELETE", "/api/sessions/current", nil); r.Status != 204 {
			t.Fatalf("sign out: %d %s", r.Status, r.Body)
		}
		select {
		case <-h.closed:
			var ce *websocket.CloseError
			if !errors.As(h.err, &ce) || ce.Code != httpapi.HubCloseSessionEnded {
				t.Errorf("closed with %v, want close code %d", h.err, httpapi.HubCloseSessionEnded)
			}
		case <-time.After(3 * time.Second):
			t.Fatal("the connection of a signed-out session is still open")
		}
		// The member's other session stays connected.
		select {
		case <-b.closed:
			t.Errorf("another session's connection closed: %v", b.err)
		default:
		}
	})
}

// TestHubSignOutEndsSocketsAtOnce: signing out closes that session's
// sockets at once on the node that took the sign-out, before anything more
// is sent to them, and on every other node when its realtime projection
// sees the revocation; the periodic session check (a minute here) is not
// what closes them (issue 14, F8).
func TestHubSignOutEndsSocketsAtOnce(t *testing.T) {
	pipe := testenv.StartPipeline(t)
	opts := testenv.Live{Pipeline: pipe, Hub: live.HubOptions{SessionCheck: time.Hour}}
	env, env2 := testenv.NewLive(t, opts), testenv.NewLive(t, opts)
	member, expert := env.As(t, "member@demo.agora"), env.As(t, "expert@demo.agora")
	here, there := dial(t, env, "", bearer(member.Token)), dial(t, env2, "", bearer(member.Token))
	other := dial(t, env, "", bearer(env.As(t, "member@demo.agora").Token)) // the member's other session

	// Both nodes deliver to the session before the sign-out.
	expertID := hubUserID(t, expert)
	job := testenv.Unique("job")
	if r := expert.Do("PATCH", "/api/users/me", map[string]any{"jobTitle": job}); r.Status != 200 {
		t.Fatalf("PATCH /api/users/me: %d %s", r.Status, r.Body)
	}
	for _, h := range []*hubConn{here, there} {
		h.waitFor(liveWait, "user.updated before the sign-out", is(realtime.UserUpdated, "user:"+expertID))
	}

	if r := member.Do("DELETE", "/api/sessions/current", nil); r.Status != 204 {
		t.Fatalf("sign out: %d %s", r.Status, r.Body)
	}
	closedWith := func(h *hubConn, within time.Duration, where string) {
		t.Helper()
		select {
		case <-h.closed:
			var ce *websocket.CloseError
			if !errors.As(h.err, &ce) || ce.Code != httpapi.HubCloseSessionEnded {
				t.Errorf("%s: closed with %v, want close code %d", where, h.err, httpapi.HubCloseSessionEnded)
			}
		case <-time.After(within):
			t.Fatalf("%s: the signed-out session's socket is still open after %v", where, within)
		}
	}
	closedWith(here, 2*time.Second, "the node that signed out")
	if r := expert.Do("PATCH", "/api/users/me", map[string]any{"jobTitle": job + "-2"}); r.Status != 200 {
		t.Fatalf("PATCH /api/users/me: %d %s", r.Status, r.Body)
	}
	other.waitFor(liveWait, "user.updated to the member's other session", func(m hubMsg) bool {
		return is(realtime.UserUpdated, "user:"+expertID)(m) && m.Payload["jobTitle"] == job+"-2"
	})
	for {
		select {
		case m := <-here.msgs:
			if m.Payload["jobTitle"] == job+"-2" {
				t.Errorf("the signed-out socket received %s", m.Raw)
			}
			continue
		default:
		}
		break
	}
	closedWith(there, liveWait, "another node")
}

// TestHubRefusesBeforeUpgrading: without a valid token, from a foreign
// page, or without a handshake, the answer is a JSON error, not a socket.
func TestHubRefusesBeforeUpgrading(t *testing.T) {
	env := testenv.New(t) // no broker: the hub still authenticates and upgrades
	anon := env.Client(t)
	if r := anon.Do("GET", "/api/hub", nil); r.Status != 401 || r.Code() != "authenticationRequired" {
		t.Errorf("no token: %d %s", r.Status, r.Body)
	}
	stale := env.Client(t)
	stale.Token = "not-a-token"
	if r := stale.Do("GET", "/api/hub", nil); r.Status != 401 || r.Code() != "tokenInvalid" {
		t.Errorf("bad bearer token: %d %s", r.Status, r.Body)
	}
	member := env.As(t, "member@demo.agora")
	if r := member.Do("GET", "/api/hub", nil); r.Status != 400 || r.Code() != "badRequest" {
		t.Errorf("no handshake: %d %s", r.Status, r.Body)
	}

	handshake := func(name, query string, header http.Header, want int) {
		t.Run(name, func(t *testing.T) {
			conn, res, err := websocket.DefaultDialer.Dial(hubURL(env)+query, header)
			if want == http.StatusSwitchingProtocols {
				if err != nil {
					t.Fatalf("dial: %v", err)
				}
				conn.Close()
				return
			}
			if err == nil {
				conn.Close()
				t.Fatalf("upgraded; want %d", want)
			}
			if res == nil || res.StatusCode != want {
				t.Fatalf("dial: %v (%v); want %d", err, res, want)
			}
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q, want the JSON error body", ct)
			}
			var body struct{ Code, Message string }
			if err := json.NewDecoder(res.Body).Decode(&body); err != nil || !catalogued[body.Code] || body.Message == "" {
				t.Errorf("body %+v (%v): want the catalogue's shape and a catalogue code", body, err)
			}
		})
	}
	handshake("no token", "", nil, 401)
	handshake("bad cookie", "", cookie("not-a-token"), 401)
	handshake("bad ticket", "?ticket=nope", nil, 401)
	// A session token in the URL (a browser could send no other way before
	// tickets) no longer opens the hub: access logs keep URLs.
	handshake("session token in the URL", "?access_token="+member.Token, nil, 401)
	handshake("foreign origin", "", http.Header{"Authorization": {"Bearer " + member.Token}, "Origin": {"https://evil.example"}}, 403)
	handshake("same origin", "", http.Header{"Cookie": {"user_token=" + member.Token}, "Origin": {env.URL}}, 101)
	handshake("ticket", "?ticket="+hubTicket(t, member), nil, 101)
	// Behind a proxy that passes the host name without the port (nginx's $host).
	handshake("same host behind a proxy", "", http.Header{"Authorization": {"Bearer " + member.Token}, "Host": {"127.0.0.1"}, "Origin": {"http://127.0.0.1:8443"}}, 101)
	handshake("other host behind a proxy", "", http.Header{"Authorization": {"Bearer " + member.Token}, "Host": {"127.0.0.1"}, "Origin": {"http://localhost:8443"}}, 403)

	// A connection with no broker behind it stays open and quiet.
	h := dial(t, env, "", bearer(member.Token))
	h.none(300*time.Millisecond, "message without a broker", anything)
}

// catalogued is the catalogue codes of the hub's refusals (the Error schema).
var catalogued = map[string]bool{"authenticationRequired": true, "tokenInvalid": true, "tokenExpired": true, "forbidden": true, "badRequest": true}

// TestHubTickets: a ticket opens one connection of its own session, once,
// for a short time; the session token itself is no longer read from the URL.
func TestHubTickets(t *testing.T) {
	env := testenv.New(t)
	refused := func(t *testing.T, query, code string) {
		t.Helper()
		conn, res, err := websocket.DefaultDialer.Dial(hubURL(env)+query, nil)
		if err == nil {
			conn.Close()
			t.Fatalf("%s opened the hub; want 401 %s", query, code)
		}
		var body struct{ Code string }
		if res != nil {
			_ = json.NewDecoder(res.Body).Decode(&body)
		}
		if res == nil || res.StatusCode != 401 || body.Code != code {
			t.Fatalf("%s: %v (%v, %q); want 401 %s", query, err, res, body.Code, code)
		}
	}
	if r := env.Client(t).Do("POST", "/api/hub/tickets", nil); r.Status != 401 || r.Code() != "authenticationRequired" {
		t.Errorf("a ticket without signing in: %d %s", r.Status, r.Body)
	}

	t.Run("a ticket is used once", func(t *testing.T) {
		member := env.As(t, "member@demo.agora")
		tk := hubTicket(t, member)
		dial(t, env, "?ticket="+tk, nil).close()
		refused(t, "?ticket="+tk, "tokenInvalid")
	})
	t.Run("a refused handshake does not use the ticket up", func(t *testing.T) {
		member := env.As(t, "member@demo.agora")
		tk := hubTicket(t, member)
		if r := env.Client(t).Do("GET", "/api/hub?ticket="+tk, nil); r.Status != 400 {
			t.Fatalf("not a handshake: %d %s", r.Status, r.Body)
		}
		dial(t, env, "?ticket="+tk, nil).close()
	})
	t.Run("an expired ticket is refused", func(t *testing.T) {
		member := env.As(t, "member@demo.agora")
		tk := hubTicket(t, member)
		// The ticket's time runs out (30 s) without the test waiting for it.
		if _, err := env.DB.Pool.Exec(t.Context(), "UPDATE tokens SET expires_on = now() - interval '1 second' WHERE token_hash = $1",
			auth.HashToken(tk)); err != nil {
			t.Fatal(err)
		}
		refused(t, "?ticket="+tk, "tokenInvalid")
	})
	t.Run("a ticket of a signed-out session is refused", func(t *testing.T) {
		member := env.As(t, "member@demo.agora")
		tk := hubTicket(t, member)
		if r := member.Do("DELETE", "/api/sessions/current", nil); r.Status != 204 {
			t.Fatalf("sign out: %d %s", r.Status, r.Body)
		}
		refused(t, "?ticket="+tk, "tokenInvalid")
	})
	t.Run("a ticket speaks for its own session", func(t *testing.T) {
		member := env.As(t, "member@demo.agora")
		tk := hubTicket(t, member)
		if _, err := env.DB.Pool.Exec(t.Context(), "UPDATE sessions SET expires_on = now() - interval '1 second' WHERE id = (SELECT session_id FROM tokens WHERE token_hash = $1)",
			auth.HashToken(tk)); err != nil {
			t.Fatal(err)
		}
		refused(t, "?ticket="+tk, "tokenExpired")
	})
	t.Run("the session token in the URL does not authenticate", func(t *testing.T) {
		member := env.As(t, "member@demo.agora")
		refused(t, "?access_token="+member.Token, "authenticationRequired")
	})
}
