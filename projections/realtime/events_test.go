package realtime_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/uuid"

	"agora/projections/change"
	"agora/projections/realtime"
)

func row(t *testing.T, js string) change.Row {
	t.Helper()
	if js == "" {
		return nil
	}
	var r change.Row
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

var (
	uid = uuid.MustParse("0190a6f2-9a4e-7c3b-8f00-000000000001")
	cid = uuid.MustParse("0190a6f2-9a4e-7c3b-8f00-000000000002")
	sid = uuid.MustParse("0190a6f2-9a4e-7c3b-8f00-000000000003")
	pid = uuid.MustParse("0190a6f2-9a4e-7c3b-8f00-000000000004")
	oid = uuid.MustParse("0190a6f2-9a4e-7c3b-8f00-000000000005")
)

func user(jobTitle, hash string) string {
	return `{"id":"` + uid.String() + `","email":"ada@demo.agora","email_key":"ada@demo.agora","password_hash":"` + hash +
		`","role":"user","first_name":"Ada","last_name":"Lovelace","avatar":null,"job_title":"` + jobTitle +
		`","company":"Analytical","bio":"","interest_tags":[],"graduation_year":null,"updated_on":"2026-11-22T08:27:03.123456Z"}`
}

func community(name string) string {
	return `{"id":"` + cid.String() + `","organization_id":"` + oid.String() + `","name":"` + name +
		`","description":"d","image":null,"video":null,"video_cover":null,"price_cents":3995,"is_free":true}`
}

func subscription(status string) string {
	return `{"id":"sub_1","product_id":"` + sid.String() + `","user_id":"` + uid.String() + `","kind":"forum","community_id":"` + cid.String() +
		`","name":"F","customer_id":"cus_1","stripe_price_id":"price_1","amount_cents":3995,"currency":"USD","status":"` + status +
		`","current_period_end":"2026-12-22T08:27:03Z","cancel_at_period_end":false,"past_due_since":null,"ended_on":null,` +
		`"access_until":"2026-12-29T08:27:03Z","event_created":"2026-11-22T08:27:03Z","event_rank":2}`
}

// subscribed is the one event of a subscription that starts giving access:
// to its member alone, with the product, never the customer or the price.
var subscribed = []realtime.Event{{
	Type: realtime.SubscriptionCreated, ContextKey: "user:" + uid.String(),
	Payload: realtime.SubscriptionPayload{UserID: uid, ProductID: sid, Kind: "forum", CommunityID: cid, SubscriptionID: "sub_1"},
	To:      []realtime.Audience{{Kind: realtime.TheUser, ID: uid}},
}}

func TestEvents(t *testing.T) {
	cm := `{"community_id":"` + cid.String() + `","profile_id":"` + pid.String() + `","role":"member","status":"active"}`
	sm := `{"series_id":"` + sid.String() + `","profile_id":"` + pid.String() + `","role":"member","status":"active"}`
	online := `{"user_id":"` + uid.String() + `","nodes":1,"idle_nodes":0,"do_not_disturb":false,"status":"online","online_on":"2026-11-22T08:27:03.123456Z"}`
	away := strings.NewReplacer(`"idle_nodes":0`, `"idle_nodes":1`, `"status":"online"`, `"status":"away"`).Replace(online)
	ada := realtime.PublicUser{ID: uid, FirstName: "Ada", LastName: "Lovelace", JobTitle: "Countess", Company: "Analytical"}
	cases := []struct {
		name          string
		table         string
		op            change.Op
		before, after string
		want          []realtime.Event
	}{
		{"a user's public fields changed", "users", change.Update, user("Engineer", "h1"), user("Countess", "h1"), []realtime.Event{{
			Type: realtime.UserUpdated, ContextKey: "user:" + uid.String(), Payload: ada,
			To: []realtime.Audience{{Kind: realtime.ReadersOfUser, ID: uid}},
		}}},
		{"a password change is not an event", "users", change.Update, user("Engineer", "h1"), user("Engineer", "h2"), nil},
		{"a snapshot read is not an event", "users", change.Read, "", user("Engineer", "h1"), nil},
		{"a registration is not user.updated", "users", change.Create, "", user("Engineer", "h1"), nil},
		{"a community created", "communities", change.Create, "", community("A"), []realtime.Event{{
			Type: realtime.CommunityCreated, ContextKey: "community:" + cid.String(),
			Payload: realtime.PublicCommunity{ID: cid, OrganizationID: oid, Name: "A", Description: "d"},
			To:      []realtime.Audience{{Kind: realtime.CommunityMembers, ID: cid}, {Kind: realtime.OrganizationAdmins, ID: oid}},
		}}},
		{"a community renamed", "communities", change.Update, community("A"), community("B"), []realtime.Event{{
			Type: realtime.CommunityUpdated, ContextKey: "community:" + cid.String(),
			Payload: realtime.PublicCommunity{ID: cid, OrganizationID: oid, Name: "B", Description: "d"},
			To:      []realtime.Audience{{Kind: realtime.CommunityMembers, ID: cid}, {Kind: realtime.OrganizationAdmins, ID: oid}},
		}}},
		{"a community's price is not an event", "communities", change.Update, community("A"), strings.Replace(community("A"), "3995", "10", 1), nil},
		// Its members are told by their memberships' deletions.
		{"a community deleted tells its organization's admins", "communities", change.Delete, community("A"), "", []realtime.Event{{
			Type: realtime.CommunityDeleted, ContextKey: "community:" + cid.String(), Payload: realtime.Deleted{ID: cid},
			To: []realtime.Audience{{Kind: realtime.OrganizationAdmins, ID: oid}},
		}}},
		{"a community membership deleted", "community_memberships", change.Delete, cm, "", nil /* checked below */},
		{"member online", "online_users", change.Create, "", online, []realtime.Event{{
			Type: realtime.UserConnected, ContextKey: "user:" + uid.String(),
			Payload: realtime.Presence{UserID: uid, Status: "online"},
			To:      []realtime.Audience{{Kind: realtime.ReadersOfUser, ID: uid}}, Except: uid,
		}}},
		{"another tab or node is not an event", "online_users", change.Update, online, strings.Replace(online, `"nodes":1`, `"nodes":2`, 1), nil},
		{"member away, to their peers", "online_users", change.Update, online, away, []realtime.Event{{
			Type: realtime.UserStatus, ContextKey: "user:" + uid.String(),
			Payload: realtime.Presence{UserID: uid, Status: "away"},
			To:      []realtime.Audience{{Kind: realtime.PeersOfUser, ID: uid}}, Except: uid,
		}}},
		{"an idle node while another is active is not an event", "online_users", change.Update,
			strings.Replace(online, `"nodes":1`, `"nodes":2`, 1), strings.NewReplacer(`"nodes":1`, `"nodes":2`, `"idle_nodes":0`, `"idle_nodes":1`).Replace(online), nil},
		{"a member who chose do-not-disturb connects with it", "online_users", change.Create, "", strings.Replace(online, `"status":"online"`, `"status":"do-not-disturb"`, 1), []realtime.Event{{
			Type: realtime.UserConnected, ContextKey: "user:" + uid.String(),
			Payload: realtime.Presence{UserID: uid, Status: "do-not-disturb"},
			To:      []realtime.Audience{{Kind: realtime.ReadersOfUser, ID: uid}}, Except: uid,
		}}},
		{"member offline", "online_users", change.Delete, online, "", []realtime.Event{{
			Type: realtime.UserDisconnected, ContextKey: "user:" + uid.String(),
			Payload: realtime.Presence{UserID: uid, Status: "offline"},
			To:      []realtime.Audience{{Kind: realtime.ReadersOfUser, ID: uid}}, Except: uid,
		}}},
		{"a table without events", "sessions", change.Update, `{"id":"x"}`, `{"id":"x"}`, nil},
		{"a truncate", "users", change.Truncate, "", "", nil},
		{"a forum membership deleted", "series_memberships", change.Delete, sm, "", nil /* checked below */},
		{"a subscription paid at checkout", "subscriptions", change.Create, "", subscription("active"), subscribed},
		{"a subscription whose first payment went through", "subscriptions", change.Update, subscription("incomplete"), subscription("active"), subscribed},
		{"a trial", "subscriptions", change.Create, "", subscription("trialing"), subscribed},
		{"a renewal is not a new subscription", "subscriptions", change.Update, subscription("active"), subscription("active"), nil},
		{"a recovery from past due is not a new subscription", "subscriptions", change.Update, subscription("past_due"), subscription("active"), nil},
		{"a subscription not paid yet", "subscriptions", change.Create, "", subscription("incomplete"), nil},
		{"a canceled subscription", "subscriptions", change.Update, subscription("active"), subscription("canceled"), nil},
		{"a subscription row removed", "subscriptions", change.Delete, subscription("active"), "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ch := change.Change{Op: c.op, Schema: "public", Table: c.table, Before: row(t, c.before), After: row(t, c.after)}
			got, err := realtime.Events(ch)
			if err != nil {
				t.Fatal(err)
			}
			switch c.table {
			case "community_memberships", "series_memberships":
				checkMembership(t, c.table, got)
				return
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("events:\n got %+v\nwant %+v", got, c.want)
			}
			for _, e := range got {
				b, err := e.Encode()
				if err != nil {
					t.Fatal(err)
				}
				for _, secret := range []string{"password", "hash", "email", "h1", "cus_1", "price_1"} {
					if strings.Contains(string(b), secret) {
						t.Errorf("message %s contains %q", b, secret)
					}
				}
			}
		})
	}
}

// checkMembership: a deleted membership is the container's deletion for
// its member when the container is gone, else a member removed, told to
// the remaining members and the member.
func checkMembership(t *testing.T, table string, got []realtime.Event) {
	t.Helper()
	kind, id, container, deleted, removed := realtime.CommunityMembers, cid, "communities", realtime.CommunityDeleted, realtime.CommunityMembersRemove
	key := "community:" + cid.String()
	// A community's managers hear of its deletion from the community.
	told := realtime.UserOfProfileUnlessManager
	if table == "series_memberships" {
		kind, id, container, deleted, removed = realtime.SeriesMembers, sid, "series", realtime.SeriesDeleted, realtime.SeriesMembersRemoved
		key, told = "series:"+sid.String(), realtime.UserOfProfile
	}
	if len(got) != 2 {
		t.Fatalf("want 2 conditional events, got %+v", got)
	}
	del, rem := got[0], got[1]
	if del.Type != deleted || del.ContextKey != key || *del.If != (realtime.Condition{Table: container, ID: id, Exists: false}) ||
		!reflect.DeepEqual(del.To, []realtime.Audience{{Kind: told, ID: pid}}) {
		t.Errorf("deletion event: %+v", del)
	}
	if rem.Type != removed || rem.ContextKey != key || *rem.If != (realtime.Condition{Table: container, ID: id, Exists: true}) ||
		!reflect.DeepEqual(rem.To, []realtime.Audience{{Kind: kind, ID: id}, {Kind: realtime.UserOfProfile, ID: pid}}) {
		t.Errorf("removal event: %+v", rem)
	}
	b, _ := rem.Encode()
	if !strings.Contains(string(b), `"profileIds":["`+pid.String()+`"]`) {
		t.Errorf("removal message %s lacks the profile", b)
	}
}

func TestMessageShape(t *testing.T) {
	e := realtime.Event{Type: realtime.UserConnected, ContextKey: "user:" + uid.String(), Payload: realtime.Presence{UserID: uid, Status: "online"}}
	b, err := e.Encode()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"api:messages:broadcast","contextKey":"user:` + uid.String() + `","event":"user.connected","data":{"payload":{"userId":"` + uid.String() + `","status":"online"}}}`
	if string(b) != want {
		t.Errorf("message\n got %s\nwant %s", b, want)
	}
}

func TestTables(t *testing.T) {
	want := []string{"public.channel_members", "public.communities", "public.community_memberships", "public.meeting_invitees", "public.meetings", "public.notifications", "public.online_users", "public.organizations",
		"public.private_message_reactions", "public.private_messages", "public.profiles",
		"public.reactions", "public.replies", "public.series_memberships", "public.subscriptions", "public.threads", "public.user_personalization", "public.users"}
	if got := realtime.Tables(); !reflect.DeepEqual(got, want) {
		t.Errorf("Tables() = %v, want %v", got, want)
	}
}

// TestForumMembershipAdded: a forum membership made active, by an
// assignment or by its community's open forum (migration 0025), tells its
// member series.members.added; a pending one, a role change and a pending
// one's activation are told as they should be.
func TestForumMembershipAdded(t *testing.T) {
	sm := func(status, role string) string {
		return `{"series_id":"` + sid.String() + `","profile_id":"` + pid.String() + `","role":"` + role + `","status":"` + status + `"}`
	}
	told := []realtime.Event{{Type: realtime.SeriesMembersAdded, ContextKey: "series:" + sid.String(),
		To: []realtime.Audience{{Kind: realtime.UserOfProfile, ID: pid}}}}
	for _, c := range []struct {
		name          string
		op            change.Op
		before, after string
		want          []realtime.Event
	}{
		{"made active", change.Create, "", sm("active", "member"), told},
		{"made pending (no account yet)", change.Create, "", sm("pending", "member"), nil},
		{"activated on registering", change.Update, sm("pending", "member"), sm("active", "member"), told},
		{"a role change", change.Update, sm("active", "member"), sm("active", "admin"), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := realtime.Events(change.Change{Op: c.op, Schema: "public", Table: "series_memberships", Before: row(t, c.before), After: row(t, c.after)})
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				b, _ := got[i].Encode()
				if !strings.Contains(string(b), `"profileIds":["`+pid.String()+`"]`) || !strings.Contains(string(b), `"seriesId":"`+sid.String()+`"`) {
					t.Errorf("message %s", b)
				}
				got[i].Payload = nil
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("events:\n got %+v\nwant %+v", got, c.want)
			}
		})
	}
}
