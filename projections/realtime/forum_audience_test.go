package realtime_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"time"

	"agora/live"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/projections/change"
	"agora/projections/realtime"
)

// TestForumAudiences applies thread, reply and reaction changes straight to
// the projection (no broker) over the seeded database, and checks who of
// five connected people receives each event and what delivery read into
// it: the forum's readers, its admin channel's admins, nobody once the post
// is gone, and never an anonymous asker.
func TestForumAudiences(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	pool := env.DB.Pool
	lookup := func(q string, args ...any) string {
		t.Helper()
		var s string
		if err := pool.QueryRow(ctx, q, args...).Scan(&s); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return s
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := pool.Exec(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	userOf := func(email string) string { return lookup("SELECT id::text FROM users WHERE email = $1", email) }
	people := map[string]string{}
	for _, name := range []string{"member", "expert", "admin", "outsider", "super"} {
		people[name] = userOf(name + "@demo.agora")
	}
	forum := func(name string) string { return lookup("SELECT id::text FROM series WHERE name = $1", name) }
	channel := func(series, kind string) string {
		return lookup("SELECT id::text FROM channels WHERE series_id = $1 AND kind = $2", series, kind)
	}
	welcome, roundtable := forum("Welcome & Introductions"), forum("Leadership Roundtable")
	welcomeMain, welcomeAdmin, roundtableMain := channel(welcome, "main"), channel(welcome, "admin"), channel(roundtable, "main")

	hub, p := newNode(t, env)
	exp := time.Now().Add(time.Hour)
	clients := map[string]*live.Client{}
	for name, id := range people {
		c, err := hub.Register(uuid.MustParse(id), uuid.New(), exp)
		if err != nil {
			t.Fatal(err)
		}
		clients[name] = c
	}

	// The rows delivery reads: a post of the member in the main channel, a
	// post in the admin channel, the expert's comment on the first, and
	// reactions.
	post, adminPost, comment := uuid.NewString(), uuid.NewString(), uuid.NewString()
	exec(`INSERT INTO threads (id, channel_id, series_id, creator_id, raw) VALUES ($1, $2, $3, $4, 'live post'), ($5, $6, $3, $7, 'admins only')`,
		post, welcomeMain, welcome, people["member"], adminPost, welcomeAdmin, people["admin"])
	exec(`INSERT INTO replies (id, thread_id, creator_id, raw) VALUES ($1, $2, $3, 'a comment')`, comment, post, people["expert"])
	exec(`INSERT INTO reactions (id, thread_id, reply_id, user_id, kind) VALUES ($1, $2, NULL, $3, 'loved'), ($4, $2, $5, $6, 'liked')`,
		uuid.NewString(), post, people["expert"], uuid.NewString(), comment, people["member"])

	now := time.Now().UTC()
	stamp := now.Format(time.RFC3339Nano)
	mk := func(table string, op change.Op, before, after string) change.Change {
		c := change.Change{Op: op, Schema: "public", Table: table, Source: change.Source{TsMs: now.UnixMilli()}}
		c.Before, c.After = row(t, before), row(t, after)
		return c
	}
	thread := func(id, ch, series, creator, as, raw string) string {
		return `{"id":"` + id + `","channel_id":"` + ch + `","series_id":"` + series + `","creator_id":"` + creator +
			`","creator_as":"` + as + `","type":"question","raw":"` + raw + `","image":null,"file":null,"link":null,"meeting":null,` +
			`"mentions":[],"hashtags":[],"created_on":"` + stamp + `","updated_on":"` + stamp + `"}`
	}
	reply := func(id, threadID, creator string) string {
		return `{"id":"` + id + `","thread_id":"` + threadID + `","parent_id":null,"creator_id":"` + creator +
			`","raw":"a comment","mentions":[],"hashtags":[],"created_on":"` + stamp + `","updated_on":"` + stamp + `"}`
	}
	reaction := func(threadID, replyID, user, kind string) string {
		return `{"id":"` + uuid.NewString() + `","thread_id":"` + threadID + `","reply_id":"` + replyID + `","user_id":"` + user +
			`","kind":"` + kind + `","created_on":"` + stamp + `"}`
	}
	welcomeReaders := []string{"admin", "expert", "member", "super"}
	gone := uuid.NewString()

	cases := []struct {
		name  string
		c     change.Change
		event string
		want  []string
		check func(t *testing.T, payload map[string]any, raw string)
	}{
		{"a post reaches the forum's readers with its author",
			mk("threads", change.Create, "", thread(uuid.NewString(), welcomeMain, welcome, people["member"], "author", "hello")),
			realtime.ThreadCreated, welcomeReaders, func(t *testing.T, p map[string]any, _ string) {
				c, _ := p["creator"].(map[string]any)
				if p["creatorId"] != people["member"] || c["userId"] != people["member"] || c["firstName"] == "" || p["channelId"] != welcomeMain {
					t.Errorf("payload %v", p)
				}
			}},
		{"an anonymous question reaches them without its asker",
			mk("threads", change.Create, "", thread(uuid.NewString(), welcomeMain, welcome, people["member"], "anonymous", "who?")),
			realtime.ThreadCreated, welcomeReaders, func(t *testing.T, p map[string]any, raw string) {
				if p["creatorId"] != nil || p["creator"] != nil || p["creatorAs"] != "anonymous" || strings.Contains(raw, people["member"]) {
					t.Errorf("the message names the asker: %s", raw)
				}
			}},
		{"a post of a forum the member is not in",
			mk("threads", change.Create, "", thread(uuid.NewString(), roundtableMain, roundtable, people["expert"], "author", "hi")),
			realtime.ThreadCreated, []string{"admin", "expert", "super"}, nil},
		{"a post of the admin channel reaches its admins only",
			mk("threads", change.Create, "", thread(uuid.NewString(), welcomeAdmin, welcome, people["admin"], "author", "hi")),
			realtime.ThreadCreated, []string{"admin", "super"}, nil},
		{"an edit carries the post's reaction counts",
			mk("threads", change.Update, thread(post, welcomeMain, welcome, people["member"], "author", "live post"),
				thread(post, welcomeMain, welcome, people["member"], "author", "edited")),
			realtime.ThreadUpdated, welcomeReaders, func(t *testing.T, p map[string]any, _ string) {
				r, _ := p["reactions"].(map[string]any)
				if p["raw"] != "edited" || r["loved"] != 1.0 || r["totalCount"] != 1.0 {
					t.Errorf("payload %v", p)
				}
			}},
		{"a deleted post", mk("threads", change.Delete, thread(gone, welcomeMain, welcome, people["member"], "author", "x"), ""),
			realtime.ThreadDeleted, welcomeReaders, func(t *testing.T, p map[string]any, _ string) {
				if p["id"] != gone || p["channelId"] != welcomeMain || p["seriesId"] != welcome {
					t.Errorf("payload %v", p)
				}
			}},
		{"a comment reaches the post's readers with its author and place",
			mk("replies", change.Create, "", reply(comment, post, people["expert"])),
			realtime.ReplyCreated, welcomeReaders, func(t *testing.T, p map[string]any, _ string) {
				c, _ := p["creator"].(map[string]any)
				if p["threadId"] != post || p["channelId"] != welcomeMain || p["seriesId"] != welcome || c["userId"] != people["expert"] {
					t.Errorf("payload %v", p)
				}
			}},
		{"a comment on an admin-channel post reaches its admins only",
			mk("replies", change.Create, "", reply(uuid.NewString(), adminPost, people["admin"])),
			realtime.ReplyCreated, []string{"admin", "super"}, nil},
		{"a comment deleted with its post tells nobody",
			mk("replies", change.Delete, reply(uuid.NewString(), gone, people["expert"]), ""), "", nil, nil},
		{"a reaction carries who, which, and the counts",
			mk("reactions", change.Create, "", reaction(post, comment, people["member"], "liked")),
			realtime.Reacted, welcomeReaders, func(t *testing.T, p map[string]any, _ string) {
				r, _ := p["reactions"].(map[string]any)
				if p["userId"] != people["member"] || p["reaction"] != "liked" || p["replyId"] != comment || p["channelId"] != welcomeMain ||
					r["liked"] != 1.0 || r["totalCount"] != 1.0 {
					t.Errorf("payload %v", p)
				}
			}},
		{"a reaction deleted with its comment tells nobody",
			mk("reactions", change.Delete, reaction(post, gone, people["member"], "liked"), ""), "", nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := p.Apply(ctx, tc.c); err != nil {
				t.Fatal(err)
			}
			var got []string
			for name, c := range clients {
				for {
					select {
					case b := <-c.Messages():
						var m live.Message
						if err := json.Unmarshal(b, &m); err != nil {
							t.Fatal(err)
						}
						if m.Event != tc.event || m.Type != live.MessageType {
							t.Errorf("%s received %s", name, b)
						}
						if tc.check != nil && name == "admin" {
							pb, _ := json.Marshal(m.Data.Payload)
							var payload map[string]any
							_ = json.Unmarshal(pb, &payload)
							tc.check(t, payload, string(b))
						}
						got = append(got, name)
						continue
					default:
					}
					break
				}
			}
			sort.Strings(got)
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("received by %v, want %v", got, tc.want)
			}
		})
	}
}
