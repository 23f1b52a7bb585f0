package httpapi_test

import (
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fasthttp/websocket"

	"agora/app/testenv"
	"agora/live"
	"agora/projections/realtime"
)

// report sends what a browser tab reports over the hub: idle or active.
func (h *hubConn) report(state string) {
	h.t.Helper()
	if err := h.conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"presence","state":"`+state+`"}`)); err != nil {
		h.t.Fatalf("report %s: %v", state, err)
	}
}

// peerStatus is the status GET /api/peers shows viewer of the peer.
func peerStatus(t *testing.T, viewer *testenv.Client, peer string) string {
	t.Helper()
	for _, p := range getPeers(t, viewer, "pageSize=9999").Results {
		if p.UserID == peer {
			return p.Status
		}
	}
	t.Fatalf("%s is not among the peers", peer)
	return ""
}

// TestHubPresenceStatus: a member's status, from what their tabs report on
// two nodes and what they choose, reaches their peers as user.status (and
// the peers list), and nobody outside their communities.
func TestHubPresenceStatus(t *testing.T) {
	pipe := testenv.StartPipeline(t)
	opts := testenv.Live{Pipeline: pipe, Hub: live.HubOptions{AwayAfter: 90 * time.Second}}
	env, env2 := testenv.NewLive(t, opts), testenv.NewLive(t, opts)
	circle, elsewhere := newCommunity(t, env), newCommunity(t, env)
	subject := newChatPeer(t, env, "Sue", circle)
	peer := newChatPeer(t, env, "Pia", circle)
	stranger := newChatPeer(t, env, "Stan", elsewhere)

	watcher := dial(t, env, "", bearer(peer.Client.Token))
	watcher2 := dial(t, env2, "", bearer(peer.Client.Token)) // the peer's tab on the other node
	outsider := dial(t, env, "", bearer(stranger.Client.Token))
	if got := watcher.settings.Payload["awayAfter"]; got != float64(90_000) {
		t.Errorf("presence settings %s, want awayAfter 90000", watcher.settings.Raw)
	}
	watcher.t, watcher2.t, outsider.t = t, t, t
	key := "user:" + subject.UserID
	about := func(m hubMsg) bool { return m.ContextKey == key }
	status := func(s string) func(hubMsg) bool {
		return func(m hubMsg) bool { return is(realtime.UserStatus, key)(m) && m.Payload["status"] == s }
	}
	// expect waits for the status on both of the peer's tabs, and in the
	// peers list.
	expect := func(what, s string) {
		t.Helper()
		m := watcher.waitFor(liveWait, what+": user.status "+s, status(s))
		if m.Payload["userId"] != subject.UserID {
			t.Errorf("payload %s", m.Raw)
		}
		watcher2.waitFor(liveWait, what+": user.status "+s+" on the other node", status(s))
		if got := peerStatus(t, peer.Client, subject.UserID); got != s {
			t.Errorf("%s: GET /peers shows %s, want %s", what, got, s)
		}
	}
	// still checks that no status event comes (the hubs have had the time
	// to write what they were told).
	still := func(what string) {
		t.Helper()
		watcher.none(1500*time.Millisecond, what, func(m hubMsg) bool { return m.Event == realtime.UserStatus && about(m) })
	}

	tab1 := dial(t, env, "", bearer(subject.Client.Token))
	tab2 := dial(t, env, "", bearer(subject.Client.Token))
	m := watcher.waitFor(liveWait, "user.connected", is(realtime.UserConnected, key))
	if m.Payload["status"] != "online" {
		t.Errorf("user.connected %s, want status online", m.Raw)
	}

	t.Run("two tabs: away only when both are idle", func(t *testing.T) {
		watcher.t, watcher2.t = t, t
		tab1.report("idle")
		still("user.status while one tab is active")
		if got := peerStatus(t, peer.Client, subject.UserID); got != "online" {
			t.Errorf("one tab idle: GET /peers shows %s, want online", got)
		}
		tab2.report("idle")
		expect("both tabs idle", "away")
		tab1.report("active")
		expect("a tab active again", "online")
		tab1.report("idle")
		expect("idle again", "away")
	})

	t.Run("two nodes: online while either has an active tab", func(t *testing.T) {
		watcher.t, watcher2.t = t, t
		tab3 := dial(t, env2, "", bearer(subject.Client.Token))
		expect("an active tab on the other node", "online")
		tab3.report("idle")
		expect("every tab on both nodes idle", "away")
		tab2.report("active")
		expect("a tab on the first node active", "online")
		tab3.close()
		still("user.status when an idle tab closes while another is active")
		tab2.report("idle")
		expect("the remaining tabs idle", "away")
	})

	t.Run("do-not-disturb set and cleared", func(t *testing.T) {
		watcher.t, watcher2.t = t, t
		wantStatus(t, subject.Client.Do("PUT", "/api/users/me/status", map[string]any{"status": "do-not-disturb"}), 204)
		expect("do-not-disturb chosen", "do-not-disturb")
		tab1.report("active")
		still("user.status for an active tab during do-not-disturb")
		wantStatus(t, subject.Client.Do("PUT", "/api/users/me/status", map[string]any{"status": "auto"}), 204)
		expect("auto again", "online")
	})

	t.Run("going offline is one user.disconnected", func(t *testing.T) {
		watcher.t, watcher2.t = t, t
		tab2.close() // the idle one: the active one keeps the member online
		still("user.status when an idle tab closes")
		tab1.close()
		watcher.waitFor(liveWait, "user.disconnected", func(m hubMsg) bool {
			if m.Event == realtime.UserStatus && about(m) {
				t.Errorf("user.status on the way out: %s", m.Raw)
			}
			return is(realtime.UserDisconnected, key)(m)
		})
		still("user.status after going offline")
		if got := peerStatus(t, peer.Client, subject.UserID); got != "offline" {
			t.Errorf("GET /peers shows %s, want offline", got)
		}
	})

	outsider.none(0, "presence of someone outside the outsider's communities", about)
}

// TestPeerStatusAndSort: GET /peers fills the four statuses and lists the
// connected peers (online, away, do-not-disturb) first, then by last name,
// 25 a page unless asked.
func TestPeerStatusAndSort(t *testing.T) {
	env := testenv.New(t)
	circle := newCommunity(t, env)
	me := newChatPeer(t, env, "Mia", circle)
	on, away, dnd, off := newChatPeer(t, env, "On", circle), newChatPeer(t, env, "Away", circle),
		newChatPeer(t, env, "Dnd", circle), newChatPeer(t, env, "Off", circle)
	exec(t, env, `INSERT INTO online_users (user_id, nodes, idle_nodes, do_not_disturb, status) VALUES
		($1, 1, 0, false, 'online'), ($2, 2, 2, false, 'away'), ($3, 1, 0, true, 'do-not-disturb')`, on.UserID, away.UserID, dnd.UserID)
	// Peers with no account of their own in the UI, offline, last names
	// after every surname().
	exec(t, env, `WITH u AS (
			INSERT INTO users (id, email, email_key, first_name, last_name, password_hash)
			SELECT gen_random_uuid(), e, lower(e), 'Filler', 'zzz' || lpad(i::text, 3, '0'), 'x'
			FROM generate_series(1, 25) i, LATERAL (SELECT $2 || i || '@example.test' AS e) a RETURNING id, email, first_name, last_name),
		p AS (
			INSERT INTO profiles (id, organization_id, email, email_key, first_name, last_name, user_id)
			SELECT gen_random_uuid(), c.organization_id, u.email, lower(u.email), u.first_name, u.last_name, u.id
			FROM u, communities c WHERE c.id = $1 RETURNING id)
		INSERT INTO community_memberships (community_id, profile_id, role, status) SELECT $1, id, 'member', 'active' FROM p`,
		circle, testenv.Unique("filler"))

	connected := []chatPeer{on, away, dnd}
	sort.Slice(connected, func(i, j int) bool { return strings.ToLower(connected[i].Last) < strings.ToLower(connected[j].Last) })
	want := []string{}
	for _, p := range connected {
		want = append(want, p.Last)
	}
	want = append(want, off.Last)
	page := getPeers(t, me.Client, "")
	if page.Total != 29 || len(page.Results) != 25 {
		t.Fatalf("total %d, %d results; want 29 and the default page of 25", page.Total, len(page.Results))
	}
	if got := peerNames(page)[:4]; !slices.Equal(got, want) {
		t.Errorf("first peers %v, want %v: the connected ones by last name, then the offline", got, want)
	}
	statuses := map[string]string{on.UserID: "online", away.UserID: "away", dnd.UserID: "do-not-disturb", off.UserID: "offline"}
	for _, p := range page.Results {
		w, ok := statuses[p.UserID]
		if !ok {
			w = "offline"
		}
		if p.Status != w || (p.Presence != nil) != (w != "offline") || p.LastMessageOn != nil {
			t.Errorf("peer %s %s: status %s, presence %v; want %s", p.FirstName, p.LastName, p.Status, p.Presence, w)
		}
	}
	if rest := getPeers(t, me.Client, "page=2"); len(rest.Results) != 4 || rest.Results[3].LastName != "zzz025" {
		t.Errorf("page 2: %v", peerNames(rest))
	}
	// The profile dialog tells the same status.
	for id, w := range statuses {
		r := me.Client.Do("GET", "/api/users/"+id+"/profile", nil)
		wantStatus(t, r, 200)
		var p struct{ Status string }
		r.JSON(t, &p)
		if p.Status != w {
			t.Errorf("profile of %s: status %s, want %s", id, p.Status, w)
		}
	}
}

// TestMatrixPresenceStatus: PUT and GET /users/me/status are every
// signed-in person's own choice, which they read back and nobody else's;
// a guest is refused and nothing is written.
func TestMatrixPresenceStatus(t *testing.T) {
	env := testenv.New(t)
	f := newShareFixture(t, env)
	// other chose do-not-disturb: nobody else reads it as theirs.
	other := newMember(t, env, "StatusOther")
	wantStatus(t, other.Client.Do("PUT", "/api/users/me/status", map[string]any{"status": "do-not-disturb"}), 204)
	choices := func() int { return env.Count(t, "presence_choices", "true") }
	for _, role := range f.roles() {
		t.Run(role.name, func(t *testing.T) {
			before := choices()
			if role.name != "guest" {
				if got := chosenStatus(t, role.c); got != "auto" {
					t.Errorf("before choosing, read %q, want auto", got)
				}
			}
			r := role.c.Do("PUT", "/api/users/me/status", map[string]any{"status": "do-not-disturb"})
			if role.name == "guest" {
				wantError(t, r, 401, "authenticationRequired")
				wantError(t, role.c.Do("GET", "/api/users/me/status", nil), 401, "authenticationRequired")
				if choices() != before {
					t.Error("a guest's refused call wrote")
				}
				return
			}
			wantStatus(t, r, 204)
			me := hubUserID(t, role.c)
			if n := env.Count(t, "presence_choices", "user_id = $1 AND status = 'do-not-disturb'", me); n != 1 || choices() != before+1 {
				t.Errorf("after do-not-disturb: %d choices of the caller, %d in all (was %d)", n, choices(), before)
			}
			// The caller reads their own choice back, and reading writes
			// nothing.
			if got := chosenStatus(t, role.c); got != "do-not-disturb" {
				t.Errorf("read back %q, want do-not-disturb", got)
			}
			if choices() != before+1 {
				t.Error("reading the status wrote")
			}
			// The same again changes nothing; auto removes it.
			wantStatus(t, role.c.Do("PUT", "/api/users/me/status", map[string]any{"status": "do-not-disturb"}), 204)
			wantStatus(t, role.c.Do("PUT", "/api/users/me/status", map[string]any{"status": "auto"}), 204)
			if choices() != before {
				t.Errorf("after auto: %d choices, want %d", choices(), before)
			}
			if got := chosenStatus(t, role.c); got != "auto" {
				t.Errorf("read back %q after auto", got)
			}
			if got := chosenStatus(t, other.Client); got != "do-not-disturb" {
				t.Errorf("the other member reads %q, want their own do-not-disturb", got)
			}
		})
	}
}

// chosenStatus is what GET /api/users/me/status tells c of its own choice.
func chosenStatus(t *testing.T, c *testenv.Client) string {
	t.Helper()
	r := c.Do("GET", "/api/users/me/status", nil)
	wantStatus(t, r, 200)
	var b struct{ Status string }
	r.JSON(t, &b)
	return b.Status
}

func TestPresenceStatusBadInput(t *testing.T) {
	env := testenv.New(t)
	m := newMember(t, env, "Status")
	wantStatus(t, m.Client.Do("PUT", "/api/users/me/status", map[string]any{"status": "do-not-disturb"}), 204)
	for _, body := range []any{
		map[string]any{"status": "away"},
		map[string]any{"status": "online"},
		map[string]any{"status": ""},
		map[string]any{"status": nil},
		map[string]any{},
	} {
		wantInvalid(t, m.Client.Do("PUT", "/api/users/me/status", body), "status")
	}
	for _, body := range []any{[]string{"do-not-disturb"}, map[string]any{"status": 1}, map[string]any{"status": "auto", "until": "tomorrow"}} {
		wantError(t, m.Client.Do("PUT", "/api/users/me/status", body), 400, "invalidBody")
	}
	if n := env.Count(t, "presence_choices", "user_id = $1", m.UserID); n != 1 {
		t.Errorf("refused calls changed the choice: %d rows, want 1", n)
	}
}
