package httpapi_test

import (
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"

	"agora/internal/testenv"
)

// searchPage is a member search's or mention candidates' answer.
type searchPage struct {
	Results []struct {
		ID        string  `json:"id"`
		UserID    *string `json:"userId"`
		FirstName string  `json:"firstName"`
		LastName  string  `json:"lastName"`
	} `json:"results"`
	Total int `json:"total"`
}

func getSearch(t *testing.T, c *testenv.Client, path string) searchPage {
	t.Helper()
	r := c.Do("GET", path, nil)
	wantStatus(t, r, 200)
	var p searchPage
	r.JSON(t, &p)
	return p
}

// surname is a made-up name of letters alone, so that a one-letter typo
// of it is still one edit away and matches no one else.
func surname() string {
	b := []byte("Zy")
	for len(b) < 9 {
		b = append(b, byte('a'+rand.IntN(26)))
	}
	return string(b)
}

// misspell swaps one letter in the middle of a word.
func misspell(w string) string {
	i := len(w) / 2
	c := byte('q')
	if w[i] == 'q' {
		c = 'x'
	}
	return w[:i] + string(c) + w[i+1:]
}

// TestMemberSearch: the share and access dialogs' member search (spec 000
// §2.7) finds a community's members by first, last or full name, with
// typos, five at most with the total for the "more results" line, invited
// members too; only for the community's members and admins.
func TestMemberSearch(t *testing.T) {
	env, _ := testenv.NewSearch(t)
	admin := env.As(t, adminEmail)
	circle := newCommunity(t, env)
	family := surname()
	firsts := []string{"Ada", "Adele", "Bruno", "Chiara", "Dmitri", "Esther", "Farid"}
	for _, first := range firsts {
		r := admin.Do("POST", "/api/communities/"+circle+"/profiles", map[string]any{
			"firstName": first, "lastName": family, "email": strings.ToLower(first+"."+family) + "@search.test", "sendInvitation": false,
		})
		wantStatus(t, r, 201)
	}
	m := fresh(t, env, circle, "Searcher")
	path := func(q string, more ...string) string {
		return "/api/communities/" + circle + "/member-search?q=" + url.QueryEscape(q) + strings.Join(more, "")
	}
	eventually(t, func() bool { return getSearch(t, m.Client, path(family)).Total == len(firsts) })

	p := getSearch(t, m.Client, path(family))
	if len(p.Results) != 5 || p.Total != 7 {
		t.Errorf("by last name: %d shown of %d, want 5 of 7", len(p.Results), p.Total)
	}
	for _, r := range p.Results {
		if r.LastName != family || r.UserID != nil {
			t.Errorf("result %+v: want an invited %s", r, family)
		}
	}
	if p := getSearch(t, m.Client, path(misspell(family))); p.Total != 7 {
		t.Errorf("a typo in the last name found %d, want 7", p.Total)
	}
	if p := getSearch(t, m.Client, path("adele "+strings.ToLower(family[:4]))); p.Total != 1 || p.Results[0].FirstName != "Adele" {
		t.Errorf("a full-name prefix: %+v", p)
	}
	if p := getSearch(t, m.Client, path("chiara", "&limit=50")); p.Total != 1 || p.Results[0].FirstName != "Chiara" {
		t.Errorf("by first name: %+v", p)
	}
	if p := getSearch(t, m.Client, path("%")); p.Total != 0 || len(p.Results) != 0 {
		t.Errorf("punctuation alone matched %d", p.Total)
	}
	// The demo admin administers the community through its organization.
	if p := getSearch(t, admin, path(family)); p.Total != 7 {
		t.Errorf("admin: %d", p.Total)
	}
	wantError(t, env.As(t, outsiderEmail).Do("GET", path(family), nil), 403, "forbidden")
	wantError(t, m.Client.Do("GET", "/api/communities/"+unknownID+"/member-search?q=a", nil), 404, "notFound")
	wantInvalid(t, m.Client.Do("GET", path(strings.Repeat("a", 101), "&limit=0"), nil), "q", "limit")
	wantInvalid(t, m.Client.Do("GET", "/api/communities/nope/member-search", nil), "communityId")
	wantStatus(t, env.Client(t).Do("GET", path(family), nil), 401)
}

// TestMentionCandidates: a forum's members with an account, by name, for
// the forum's readers.
func TestMentionCandidates(t *testing.T) {
	env, _ := testenv.NewSearch(t)
	admin := env.As(t, adminEmail)
	circle := newCommunity(t, env)
	f := createForum(t, admin, circle)
	family := surname()
	a, b := fresh(t, env, circle, "Mentioned"), fresh(t, env, circle, "Unassigned")
	exec(t, env, "UPDATE users SET last_name = $1 WHERE id = ANY($2::uuid[])", family, []string{a.UserID, b.UserID})
	r := admin.Do("POST", "/api/communities/"+circle+"/profiles", map[string]any{
		"firstName": "Invited", "lastName": family, "email": strings.ToLower(family) + "@mention.test", "sendInvitation": false,
	})
	wantStatus(t, r, 201)
	var invited struct {
		ID string `json:"id"`
	}
	r.JSON(t, &invited)
	join(t, env, circle, "member", invited.ID)
	wantStatus(t, assign(t, admin, f.ID, "member", a.ProfileID, invited.ID), 204)
	path := "/api/series/" + f.ID + "/mention-candidates?q=" + url.QueryEscape(misspell(family))
	eventually(t, func() bool { return getSearch(t, a.Client, path).Total == 1 })
	p := getSearch(t, a.Client, path)
	if len(p.Results) != 1 || p.Results[0].UserID == nil || *p.Results[0].UserID != a.UserID {
		t.Errorf("candidates %+v: want the assigned member with an account alone", p)
	}
	wantError(t, b.Client.Do("GET", path, nil), 403, "seriesForbidden")
	wantError(t, a.Client.Do("GET", "/api/series/"+unknownID+"/mention-candidates", nil), 404, "notFound")
	wantInvalid(t, a.Client.Do("GET", "/api/series/"+f.ID+"/mention-candidates?limit=51", nil), "limit")
}
