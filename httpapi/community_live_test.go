package httpapi_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/httpapi/openapi"
	"agora/projections/realtime"
	"agora/search"
)

// TestCommunityLifecycleLive: a community made, edited and deleted through
// the API is told live to those it concerns (its organization's admin, a
// super user, its member), not to an outsider; and once deleted, its posts
// leave the search store and its member's document no longer lists it,
// through the relay, the broker and the search projection.
func TestCommunityLifecycleLive(t *testing.T) {
	env, store := testenv.NewSearch(t)
	org := queryString(t, env, "SELECT organization_id::text FROM communities WHERE name = $1", leadershipCircle)
	admin, super, outsider := env.As(t, adminEmail), env.As(t, superEmail), env.As(t, outsiderEmail)
	a, s, o := dial(t, env, "", bearer(admin.Token)), dial(t, env, "", bearer(super.Token)), dial(t, env, "", bearer(outsider.Token))
	for _, h := range []*hubConn{a, s, o} {
		h.t = t
	}
	m := newMember(t, env, "Doomed")
	mh := dial(t, env, "", bearer(m.Client.Token))
	mh.t = t

	// The super user makes it (and, having a profile in the organization,
	// becomes its admin until the deletion below); the demo admin, not a
	// member, hears of it as the organization's admin.
	r := super.Do("POST", "/api/organizations/"+org+"/communities", map[string]any{"name": testenv.Unique("Doomed"), "description": "Soon gone"})
	wantStatus(t, r, 201)
	var made struct {
		ID string `json:"id"`
	}
	r.JSON(t, &made)
	id, key := made.ID, "community:"+made.ID
	created := a.waitFor(liveWait, "community.created at the organization's admin", is(realtime.CommunityCreated, key))
	if created.Payload["id"] != id || created.Payload["organizationId"] != org || created.Payload["description"] != "Soon gone" {
		t.Errorf("payload %s", created.Raw)
	}
	s.waitFor(liveWait, "community.created at the super user", is(realtime.CommunityCreated, key))

	join(t, env, id, "member", m.ProfileID)
	f := createForum(t, admin, id)
	wantStatus(t, assign(t, admin, f.ID, "member", m.ProfileID), 204)
	word := aiWord()
	p := post(t, m.Client, f.ID, map[string]any{"channelId": f.MainChannelID, "raw": "a doomed post " + word})
	postFound := func() bool {
		t.Helper()
		res, err := store.Posts().Search(t.Context(), search.Query{Text: word, Filter: search.Filter{
			search.In("threadId", p.ID), search.ReadableBy(uuid.Nil.String(), f.MainChannelID)}})
		if err != nil {
			t.Fatal(err)
		}
		return len(res.Hits) == 1
	}
	eventually(t, postFound)
	member := func() search.Member {
		t.Helper()
		res, err := store.Members().Search(t.Context(), search.Query{Filter: search.Filter{search.In("id", m.ProfileID)}, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) != 1 {
			t.Fatalf("the member's document: %+v", res.Hits)
		}
		return res.Hits[0]
	}
	eventually(t, func() bool { return slices.Contains(member().CommunityIDs, id) })

	wantStatus(t, admin.Do("PATCH", "/api/communities/"+id, map[string]any{"name": "Renamed"}), 204)
	for _, h := range []*hubConn{a, s, mh} {
		u := h.waitFor(liveWait, "community.updated", is(realtime.CommunityUpdated, key))
		if u.Payload["name"] != "Renamed" {
			t.Errorf("payload %s", u.Raw)
		}
	}

	wantStatus(t, admin.Do("DELETE", "/api/communities/"+id, nil), 204)
	if n := env.Count(t, "series", "community_id = $1", id) + env.Count(t, "threads", "id = $1", p.ID) +
		env.Count(t, "community_memberships", "community_id = $1", id); n != 0 {
		t.Errorf("%d rows of the community are left", n)
	}
	for _, h := range []*hubConn{a, s, mh} {
		d := h.waitFor(liveWait, "community.deleted", is(realtime.CommunityDeleted, key))
		if d.Payload["id"] != id {
			t.Errorf("payload %s", d.Raw)
		}
	}
	wantStatus(t, admin.Do("GET", "/api/communities/"+id, nil), 404)

	// The read store follows: the post is no longer found, and the member's
	// document no longer lists the community or its forum.
	eventually(t, func() bool { return !postFound() })
	eventually(t, func() bool {
		d := member()
		return !slices.Contains(d.CommunityIDs, id) && !slices.Contains(d.ForumIDs, f.ID)
	})
	o.none(500*time.Millisecond, "a community event at the outsider", func(m hubMsg) bool { return m.ContextKey == key })

	// The live payload is the documented one.
	b, _ := json.Marshal(created.Payload)
	if err := openapi.ValidateSchema("LiveCommunity", b); err != nil {
		t.Errorf("community.created: %v", err)
	}
}
