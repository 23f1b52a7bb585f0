package httpapi_test

import (
	"testing"
	"time"

	"agora/app/testenv"
	"agora/internal/adapters/payments"
)

// assignableComplimentary is the isComplimentary of a person in an
// assignables list, as a manager reads it.
func assignableComplimentary(t *testing.T, c *testenv.Client, path, profileID string) bool {
	t.Helper()
	r := c.Do("GET", path, nil)
	wantStatus(t, r, 200)
	var l struct {
		Results []struct {
			ID              string `json:"id"`
			IsComplimentary bool   `json:"isComplimentary"`
		} `json:"results"`
	}
	r.JSON(t, &l)
	for _, a := range l.Results {
		if a.ID == profileID {
			return a.IsComplimentary
		}
	}
	t.Fatalf("%s does not list %s", path, profileID)
	return false
}

// TestComplimentaryOpensPaidForum: a member of a paid forum who has not
// paid is closed out; the admin's complimentary access opens the forum,
// taking it closes it again, and a subscription still opens it. The
// member cannot give it to themselves.
func TestComplimentaryOpensPaidForum(t *testing.T) {
	env := testenv.New(t)
	p := newPaidForum(t, env, 1200)
	m := p.member.Client
	path := "/api/series/" + p.forum.ID + "/profiles/" + p.member.ProfileID + "/complimentary"
	assignables := "/api/series/" + p.forum.ID + "/assignables?isAssigned=true&pageSize=100"
	open := func(want bool, when string) {
		t.Helper()
		f := forumOf(t, m, p.forum.ID)
		if f.IsSubscribed != want || (feedStatus(t, m, f) == 200) != want {
			t.Errorf("%s: isSubscribed %v, posts %d; want open %v", when, f.IsSubscribed, feedStatus(t, m, f), want)
		}
	}
	open(false, "before")
	if assignableComplimentary(t, p.admin, assignables, p.member.ProfileID) {
		t.Error("a new member is complimentary")
	}

	// A member who has not paid does not read the forum: it is unknown to
	// them, as to anyone who may not read it.
	wantError(t, m.Do("PUT", path, nil), 404, "notFound")
	open(false, "after the member asked for it themselves")

	wantStatus(t, p.admin.Do("PUT", path, nil), 204)
	open(true, "complimentary")
	if !assignableComplimentary(t, p.admin, assignables, p.member.ProfileID) {
		t.Error("the assignables do not show the complimentary access")
	}
	wantStatus(t, p.admin.Do("PUT", path, nil), 204) // again: nothing changes
	open(true, "complimentary twice")

	wantStatus(t, p.admin.Do("DELETE", path, nil), 204)
	open(false, "taken")
	if assignableComplimentary(t, p.admin, assignables, p.member.ProfileID) {
		t.Error("the assignables still show the complimentary access")
	}
	wantStatus(t, p.admin.Do("DELETE", path, nil), 204)

	st := state(p, payments.NewID("sub"), payments.StatusActive, time.Now().AddDate(0, 1, 0))
	if got := stripeSend(t, env, payments.SubscriptionEvent(payments.NewID("evt"), payments.EventSubscriptionCreated, time.Now(), st)); got != "applied" {
		t.Fatalf("created: %s", got)
	}
	open(true, "subscribed")
}

// TestComplimentaryOpensPaidCommunity: the same for a paid community, by
// its admin, with its forums closed and opened with it.
func TestComplimentaryOpensPaidCommunity(t *testing.T) {
	env := testenv.New(t)
	m := newMatrixCommunity(t, env)
	c := m.community(t)
	wantStatus(t, m.commAdmin.Do("PATCH", "/api/communities/"+c, map[string]any{"price": 2500, "isFree": false}), 204)
	path := "/api/communities/" + c + "/profiles/" + m.memberM.ProfileID + "/complimentary"
	assignables := "/api/communities/" + c + "/assignables?presetFilter=assigned"
	subscribed := func() bool {
		t.Helper()
		var v communityBody
		r := m.member.Do("GET", "/api/communities/"+c, nil)
		wantStatus(t, r, 200)
		r.JSON(t, &v)
		return v.IsSubscribed
	}
	if subscribed() || assignableComplimentary(t, m.commAdmin, assignables, m.memberM.ProfileID) {
		t.Fatal("the member of the paid community has access before anything")
	}
	wantStatus(t, m.commAdmin.Do("PUT", path, nil), 204)
	if !subscribed() || !assignableComplimentary(t, m.commAdmin, assignables, m.memberM.ProfileID) {
		t.Error("no access after complimentary access was given")
	}
	wantStatus(t, m.orgAdmin.Do("DELETE", path, nil), 204)
	if subscribed() || assignableComplimentary(t, m.commAdmin, assignables, m.memberM.ProfileID) {
		t.Error("access after complimentary access was taken")
	}
}
