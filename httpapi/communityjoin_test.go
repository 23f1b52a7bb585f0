package httpapi_test

import (
	"testing"

	"agora/app/testenv"
)

// TestCommunityJoinNotified: a member added to a community is told, in
// the bell's list (community-join, naming the community, with no forum,
// post or author), whether an admin added them or they accepted an
// invitation by registering; the admin who makes a community is not told
// of their own membership; a member removed from the community no longer
// sees it listed.
func TestCommunityJoinNotified(t *testing.T) {
	n := testenv.NewNotifications(t)
	admin := n.As(t, adminEmail)
	// Registering accepts an invitation to the first community.
	m := newMember(t, n.Env, "Joiner")
	community := newCommunity(t, n.Env)
	name := queryString(t, n.Env, "SELECT name FROM communities WHERE id = $1", community)
	wantStatus(t, admin.Do("POST", "/api/communities/"+community+"/profiles",
		map[string]any{"firstName": "Fresh", "lastName": "Member", "email": m.Email}), 201)
	org := queryString(t, n.Env, "SELECT organization_id::text FROM communities WHERE id = $1", community)
	// Made by the super user: a community the demo admin made would be
	// one more in their Home list, which TestMyCommunities counts.
	maker := n.As(t, superEmail)
	made := maker.Do("POST", "/api/organizations/"+org+"/communities", map[string]any{"name": testenv.Unique("Made"), "description": "d"})
	wantStatus(t, made, 201)
	var mine struct {
		ID string `json:"id"`
	}
	made.JSON(t, &mine)
	settle(t, n)

	joins := func(c *testenv.Client) map[string]notificationView {
		t.Helper()
		out := map[string]notificationView{}
		for _, it := range listNotifications(t, c, "?pageSize=100").Results {
			if it.Type == "community-join" {
				out[it.Context.CommunityID] = it
			}
		}
		return out
	}
	got := joins(m.Client)
	first := communityID(t, n.Env, leadershipCircle)
	if it, ok := got[first]; !ok || it.Raw != leadershipCircle || !it.IsUnread {
		t.Errorf("the invitation accepted: %+v (of %v)", it, got)
	}
	it, ok := got[community]
	if !ok || it.Raw != name || it.Author != nil || it.PostID != "" || it.Context.SeriesID != "" || !it.IsUnread {
		t.Errorf("added by the admin: %+v (of %v)", it, got)
	}
	var named struct {
		Results []struct {
			Context struct {
				CommunityName string  `json:"communityName"`
				SeriesID      *string `json:"seriesId"`
			} `json:"context"`
			Type string `json:"type"`
		} `json:"results"`
	}
	m.Client.Do("GET", "/api/notifications?pageSize=100", nil).JSON(t, &named)
	for _, r := range named.Results {
		if r.Type == "community-join" && (r.Context.CommunityName == "" || r.Context.SeriesID != nil) {
			t.Errorf("a community-join's context: %+v", r.Context)
		}
	}
	if _, told := joins(maker)[mine.ID]; told {
		t.Error("the one who made the community was told of it")
	}

	// Removed from the community, the member no longer has it listed.
	wantStatus(t, admin.Do("POST", "/api/communities/"+community+"/assignments",
		[]map[string]any{{"roleId": nil, "assigneeIds": []string{m.ProfileID}}}), 200)
	if _, still := joins(m.Client)[community]; still {
		t.Error("a community the member was removed from is still listed")
	}
}
