package httpapi_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"agora/app/testenv"
	"agora/projections/realtime"
)

// TestOpenForumReadByEveryCommunityMember: every member of a community
// reads its open forums (spec 001 §4: an open forum's members cannot be
// removed, for every member of its community is one), whichever way they
// joined: the share dialog, the new member dialog, a file import, or an
// invitation they accepted by registering; the forum is on their home
// page's community and its posts open to them, as do those of a forum made
// open after they joined and of an open forum made after that. Before the
// rule (migration 0025) each of them had a 404.
func TestOpenForumReadByEveryCommunityMember(t *testing.T) {
	env := testenv.New(t)
	admin := env.As(t, adminEmail)
	community := newCommunity(t, env)
	open := createOpenForum(t, admin, community)
	raw := testenv.Unique("Open to all")
	postIn(t, admin, open, raw)

	// The share dialog gives the community to someone with an account.
	shared := newMember(t, env, "Shared")
	wantStatus(t, admin.Do("POST", "/api/communities/"+community+"/assignments",
		[]map[string]any{{"roleId": "member", "assigneeIds": []string{shared.ProfileID}}}), 200)
	// The new member dialog adds someone with an account.
	added := newMember(t, env, "Added")
	wantStatus(t, admin.Do("POST", "/api/communities/"+community+"/profiles",
		map[string]any{"firstName": "Added", "lastName": "Member", "email": added.Email}), 201)
	// A file import adds someone with an account.
	imported := newMember(t, env, "Imported")
	rep := importReport(t, admin.Upload(communityImport(community), "file", "people.csv",
		fmt.Appendf(nil, "email,firstName,lastName\n%s,Imported,Member\n", imported.Email)))
	if rep.Added+rep.Existing != 1 {
		t.Fatalf("import report %+v", rep)
	}
	// An invitation to a new address, accepted by registering.
	email := freshAddress("Invited")
	wantStatus(t, admin.Do("POST", "/api/communities/"+community+"/profiles",
		map[string]any{"firstName": "Invited", "lastName": "Member", "email": email, "sendInvitation": true}), 201)
	token := newestToken(t, env, email, "/accept-invitation")
	invited := env.Client(t)
	reg := invited.Do("POST", "/api/users?token="+url.QueryEscape(token),
		map[string]any{"firstName": "Invited", "lastName": "Member", "password": freshPassword})
	wantStatus(t, reg, 201)
	var s sessionBody
	reg.JSON(t, &s)
	invited.Token = s.AccessToken

	readers := map[string]*testenv.Client{"shared": shared.Client, "added": added.Client, "imported": imported.Client, "invited": invited}
	for name, c := range readers {
		wantReads(t, c, community, open, raw, name)
	}

	// A forum made open later, and an open forum made now, open to them all.
	later := createForum(t, admin, community)
	wantStatus(t, admin.Do("PATCH", "/api/series/"+later.ID, map[string]any{"exclusivity": "open"}), 200)
	laterRaw := testenv.Unique("Opened later")
	postIn(t, admin, later, laterRaw)
	fresh := createOpenForum(t, admin, community)
	freshRaw := testenv.Unique("Opened new")
	postIn(t, admin, fresh, freshRaw)
	for name, c := range readers {
		wantReads(t, c, community, later, laterRaw, name+" (made open)")
		wantReads(t, c, community, fresh, freshRaw, name+" (new open forum)")
	}

	// Removed from the community, a member reads none of its forums.
	wantStatus(t, admin.Do("POST", "/api/communities/"+community+"/assignments",
		[]map[string]any{{"roleId": nil, "assigneeIds": []string{shared.ProfileID}}}), 200)
	if r := shared.Client.Do("GET", "/api/channels/"+open.MainChannelID+"/threads", nil); r.Status != 404 {
		t.Errorf("removed from the community, the open forum answers %d", r.Status)
	}
}

// createOpenForum has c create an open forum in community.
func createOpenForum(t *testing.T, c *testenv.Client, community string) forumBody {
	t.Helper()
	r := c.Do("POST", "/api/communities/"+community+"/series", map[string]any{
		"name": testenv.Unique("Open forum"), "description": "Open to the community", "exclusivity": "open",
	})
	if r.Status != 201 {
		t.Fatalf("create open forum: %d %s", r.Status, r.Body)
	}
	var f forumBody
	r.JSON(t, &f)
	return f
}

// postIn has c write raw in the forum's feed.
func postIn(t *testing.T, c *testenv.Client, f forumBody, raw string) {
	t.Helper()
	wantStatus(t, c.Do("POST", "/api/series/"+f.ID+"/threads", map[string]any{"channelId": f.MainChannelID, "raw": raw}), 201)
}

// wantReads checks that c sees the forum in its community on the home
// page and reads raw in its feed.
func wantReads(t *testing.T, c *testenv.Client, community string, f forumBody, raw, who string) {
	t.Helper()
	r := c.Do("GET", "/api/communities?page=1&pageSize=9999", nil)
	if r.Status != 200 {
		t.Fatalf("%s: GET /api/communities: %d %s", who, r.Status, r.Body)
	}
	var list struct {
		Results []struct {
			ID     string `json:"id"`
			Series []struct {
				ID string `json:"id"`
			} `json:"series"`
		} `json:"results"`
	}
	r.JSON(t, &list)
	i := slices.IndexFunc(list.Results, func(c struct {
		ID     string `json:"id"`
		Series []struct {
			ID string `json:"id"`
		} `json:"series"`
	}) bool {
		return c.ID == community
	})
	switch {
	case i < 0:
		t.Errorf("%s: the community is not on the home page", who)
	case !slices.ContainsFunc(list.Results[i].Series, func(s struct {
		ID string `json:"id"`
	}) bool {
		return s.ID == f.ID
	}):
		t.Errorf("%s: the open forum is not in its community on the home page", who)
	}
	if r := c.Do("GET", "/api/series/"+f.ID, nil); r.Status != 200 {
		t.Errorf("%s: GET /api/series/{open}: %d %s", who, r.Status, r.Body)
	}
	feed := c.Do("GET", "/api/channels/"+f.MainChannelID+"/threads", nil)
	if feed.Status != 200 || !strings.Contains(string(feed.Body), raw) {
		t.Errorf("%s: the open forum's feed: %d %s", who, feed.Status, feed.Body)
	}
}

// TestOpenForumLive: a forum made open reaches its community's members
// live (series.members.added, to each member alone), and its posts then
// reach their sockets as a member's.
func TestOpenForumLive(t *testing.T) {
	pipe := testenv.StartPipeline(t)
	env := testenv.NewLive(t, testenv.Live{Pipeline: pipe})
	admin := env.As(t, adminEmail)
	community := newCommunity(t, env)
	m := newMember(t, env, "Live")
	wantStatus(t, admin.Do("POST", "/api/communities/"+community+"/assignments",
		[]map[string]any{{"roleId": "member", "assigneeIds": []string{m.ProfileID}}}), 200)
	h := dial(t, env, "", bearer(m.Client.Token))
	h.t = t

	f := createOpenForum(t, admin, community)
	got := h.waitFor(liveWait, "series.members.added", is(realtime.SeriesMembersAdded, "series:"+f.ID))
	if !strings.Contains(got.Raw, m.ProfileID) {
		t.Errorf("payload %s", got.Raw)
	}
	raw := testenv.Unique("Live in the open")
	p := post(t, admin, f.ID, map[string]any{"channelId": f.MainChannelID, "raw": raw})
	h.waitFor(liveWait, "the open forum's post", is(realtime.ThreadCreated, "thread:"+p.ID))
}
