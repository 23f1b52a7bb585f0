package httpapi_test

import (
	"context"
	"net/url"
	"slices"
	"testing"

	"agora/app/testenv"
	"agora/search"
)

// TestOrganizationProfilesInSearch: a person added, renamed and deleted
// (with the organization) through the organization calls follows in the
// member search index through the change stream: by their new name and
// their organization, and gone with it, as the posts of its forums.
func TestOrganizationProfilesInSearch(t *testing.T) {
	env, store := testenv.NewSearch(t)
	super := env.As(t, superEmail)
	org := createOrg(t, env, testenv.Unique("Search Org"))
	first, last, renamed := surname(), surname(), surname()
	id := addOrgProfile(t, super, org, map[string]any{"firstName": first, "lastName": last, "email": freshAddress("OrgSearch")})
	// The organization's people as the index has them, for a text.
	inOrg := func(text string) []string {
		t.Helper()
		res, err := store.Members().Search(context.Background(), search.Query{Text: text, Filter: search.Filter{search.In("organizationIds", org)}})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, h := range res.Hits {
			ids = append(ids, h.ID)
		}
		return ids
	}
	eventually(t, func() bool { return slices.Equal(inOrg(first+" "+last), []string{id}) })

	wantStatus(t, super.Do("PATCH", "/api/profiles/"+id, map[string]any{"lastName": renamed}), 204)
	eventually(t, func() bool { return slices.Equal(inOrg(renamed), []string{id}) && len(inOrg(last)) == 0 })

	// In a community of the organization, the member search of its
	// managers finds them by the new name.
	community := queryString(t, env, `INSERT INTO communities (id, organization_id, name, description)
		VALUES (gen_random_uuid(), $1, $2, 'd') RETURNING id::text`, org, testenv.Unique("Searched"))
	join(t, env, community, "member", id)
	path := "/api/communities/" + community + "/member-search?q=" + url.QueryEscape(renamed)
	eventually(t, func() bool { p := getSearch(t, super, path); return p.Total == 1 && p.Results[0].ID == id })

	// A post in a forum of the community, in the post index.
	f := createForum(t, super, community)
	th := post(t, super, f.ID, map[string]any{"channelId": f.MainChannelID, "raw": "indexed " + renamed})
	posts := func() int {
		t.Helper()
		res, err := store.Posts().Search(context.Background(), search.Query{
			Filter: search.Filter{search.In("communityId", community), search.ReadableBy(th.ID, f.MainChannelID)},
		})
		if err != nil {
			t.Fatal(err)
		}
		return len(res.Hits)
	}
	eventually(t, func() bool { return posts() == 1 })

	wantStatus(t, super.Do("DELETE", "/api/organizations/"+org, nil), 204)
	eventually(t, func() bool { return len(inOrg("")) == 0 && posts() == 0 })
	res, err := store.Members().Search(context.Background(), search.Query{Filter: search.Filter{search.In("id", id)}})
	if err != nil || len(res.Hits) != 0 {
		t.Errorf("the deleted profile is still indexed: %+v %v", res.Hits, err)
	}
}
