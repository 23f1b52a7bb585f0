package realtime_test

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/live"
	"agora/projections/change"
	"agora/projections/realtime"
)

func organization(name, identity string) string {
	return `{"id":"` + oid.String() + `","name":"` + name + `","image":null,"identity_client":` + identity +
		`,"created_on":"2026-11-22T08:27:03.123456Z","updated_on":"2026-11-22T08:27:03.123456Z"}`
}

// TestOrganizationEvents: an organization's changes are events for its
// people and super users; a profile deleted with its organization tells
// its person.
func TestOrganizationEvents(t *testing.T) {
	issuer := `"https://idp.example/realms/x"`
	url := "https://idp.example/realms/x"
	everyone := []realtime.Audience{{Kind: realtime.OrganizationMembers, ID: oid}, {Kind: realtime.SuperUsers}}
	key := "organization:" + oid.String()
	profile := func(user string) string {
		return `{"id":"` + pid.String() + `","organization_id":"` + oid.String() + `","user_id":` + user +
			`,"role":"member","email":"ada@demo.agora","email_key":"ada@demo.agora","first_name":"Ada","last_name":"L"}`
	}
	cases := []struct {
		name          string
		table         string
		op            change.Op
		before, after string
		want          []realtime.Event
	}{
		{"created", "organizations", change.Create, "", organization("A", "null"), []realtime.Event{{
			Type: realtime.OrganizationCreated, ContextKey: key, Payload: realtime.PublicOrganization{ID: oid, Name: "A"}, To: everyone,
		}}},
		{"renamed", "organizations", change.Update, organization("A", "null"), organization("B", "null"), []realtime.Event{{
			Type: realtime.OrganizationUpdated, ContextKey: key, Payload: realtime.PublicOrganization{ID: oid, Name: "B"}, To: everyone,
		}}},
		{"single sign-on turned on", "organizations", change.Update, organization("A", "null"), organization("A", issuer), []realtime.Event{{
			Type: realtime.OrganizationUpdated, ContextKey: key, Payload: realtime.PublicOrganization{ID: oid, Name: "A", IdentityClient: &url}, To: everyone,
		}}},
		{"only its updated_on is not an event", "organizations", change.Update, organization("A", "null"),
			strings.Replace(organization("A", "null"), `"updated_on":"2026-11-22`, `"updated_on":"2026-11-23`, 1), nil},
		{"deleted, to super users", "organizations", change.Delete, organization("A", "null"), "", []realtime.Event{{
			Type: realtime.OrganizationDeleted, ContextKey: key, Payload: map[string]any{"id": oid.String()}, To: []realtime.Audience{{Kind: realtime.SuperUsers}},
		}}},
		{"a snapshot read is not an event", "organizations", change.Read, "", organization("A", "null"), nil},
		{"a registered person's profile deleted", "profiles", change.Delete, profile(`"` + uid.String() + `"`), "", []realtime.Event{{
			Type: realtime.OrganizationDeleted, ContextKey: key, Payload: map[string]any{"id": oid.String()},
			To: []realtime.Audience{{Kind: realtime.FormerMember, ID: uid}},
			If: &realtime.Condition{Table: "organizations", ID: oid, Exists: false},
		}}},
		{"an invited person's profile deleted tells nobody", "profiles", change.Delete, profile("null"), "", nil},
		{"a profile edited is not an event", "profiles", change.Update, profile("null"), profile(`"` + uid.String() + `"`), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := realtime.Events(change.Change{Op: c.op, Schema: "public", Table: c.table, Before: row(t, c.before), After: row(t, c.after)})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("events:\n got %+v\nwant %+v", got, c.want)
			}
			for i, e := range got {
				w := c.want[i]
				b, err := e.Encode()
				if err != nil {
					t.Fatal(err)
				}
				var m live.Message
				if err := json.Unmarshal(b, &m); err != nil {
					t.Fatal(err)
				}
				// Both as generic JSON, whose keys marshal sorted.
				var generic any
				want, _ := json.Marshal(w.Payload)
				_ = json.Unmarshal(want, &generic)
				want, _ = json.Marshal(generic)
				if have, _ := json.Marshal(m.Data.Payload); string(have) != string(want) {
					t.Errorf("payload %s, want %s", have, want)
				}
				e.Payload, w.Payload = nil, nil
				if !reflect.DeepEqual(e, w) {
					t.Errorf("event:\n got %+v\nwant %+v", e, w)
				}
				if strings.Contains(string(b), "email") || strings.Contains(string(b), "secret") {
					t.Errorf("message %s shows private fields", b)
				}
			}
		})
	}
}

// TestOrganizationAudiences: over the seeded database, who of the
// connected members receives the organization events: the people of the
// organization and super users; a deletion, each one once.
func TestOrganizationAudiences(t *testing.T) {
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
	userOf := func(email string) string { return lookup("SELECT id::text FROM users WHERE email = $1", email) }
	org := lookup("SELECT organization_id::text FROM profiles WHERE user_id = $1", userOf("member@demo.agora"))
	// A person of another organization only.
	other := uuid.NewString()
	stranger := uuid.NewString()
	if _, err := pool.Exec(ctx, `INSERT INTO organizations (id, name) VALUES ($1, 'Elsewhere')`, other); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO users (id, email, email_key, password_hash, first_name, last_name)
		VALUES ($1, $2, $2, 'x', 'Stran', 'Ger')`, stranger, testenv.Unique("stranger")+"@example.test"); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO profiles (id, organization_id, user_id, email, email_key, first_name, last_name)
		VALUES (gen_random_uuid(), $1, $2, 's@example.test', 's@example.test', 'Stran', 'Ger')`, other, stranger); err != nil {
		t.Fatal(err)
	}

	hub, p := newNode(t, env)
	exp := time.Now().Add(time.Hour)
	clients := map[string]*live.Client{}
	for name, id := range map[string]string{"member": userOf("member@demo.agora"), "super": userOf("super@demo.agora"), "stranger": stranger} {
		c, err := hub.Register(uuid.MustParse(id), uuid.New(), exp)
		if err != nil {
			t.Fatal(err)
		}
		clients[name] = c
	}
	now := time.Now().UnixMilli()
	mk := func(table string, op change.Op, before, after string) change.Change {
		c := change.Change{Op: op, Schema: "public", Table: table, Source: change.Source{TsMs: now}}
		c.Before, c.After = row(t, before), row(t, after)
		return c
	}
	orgRow := func(id, name string) string {
		return `{"id":"` + id + `","name":"` + name + `","image":null,"identity_client":null}`
	}
	gone := uuid.NewString()
	profileRow := func(org, user string) string {
		return `{"id":"` + uuid.NewString() + `","organization_id":"` + org + `","user_id":"` + user + `"}`
	}
	cases := []struct {
		name  string
		c     change.Change
		event string
		want  []string
	}{
		{"an organization edited, to its people and super users", mk("organizations", change.Update, orgRow(org, "A"), orgRow(org, "B")),
			realtime.OrganizationUpdated, []string{"member", "super"}},
		{"another organization created, to its people and super users", mk("organizations", change.Create, "", orgRow(other, "Elsewhere")),
			realtime.OrganizationCreated, []string{"stranger", "super"}},
		{"an organization deleted, to super users", mk("organizations", change.Delete, orgRow(gone, "Gone"), ""),
			realtime.OrganizationDeleted, []string{"super"}},
		{"a profile of a deleted organization, to its person", mk("profiles", change.Delete, profileRow(gone, userOf("member@demo.agora")), ""),
			realtime.OrganizationDeleted, []string{"member"}},
		{"a super user's profile of a deleted organization: told once already", mk("profiles", change.Delete, profileRow(gone, userOf("super@demo.agora")), ""),
			"", nil},
		{"a profile deleted from an organization that exists is no deletion", mk("profiles", change.Delete, profileRow(org, userOf("member@demo.agora")), ""),
			"", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := p.Apply(ctx, tc.c); err != nil {
				t.Fatal(err)
			}
			var got []string
			for name, c := range clients {
			drain:
				for {
					select {
					case b := <-c.Messages():
						var m live.Message
						if err := json.Unmarshal(b, &m); err != nil {
							t.Fatal(err)
						}
						if m.Event != tc.event {
							t.Errorf("%s received %s", name, b)
						}
						got = append(got, name)
					default:
						break drain
					}
				}
			}
			sort.Strings(got)
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("received by %v, want %v", got, tc.want)
			}
		})
	}
}
