package httpapi_test

import (
	"math/rand/v2"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"agora/app/testenv"
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
	// issue 31, G7: a community the caller may not read is unknown to them.
	wantError(t, env.As(t, outsiderEmail).Do("GET", path(family), nil), 404, "notFound")
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
	wantError(t, b.Client.Do("GET", path, nil), 404, "notFound")
	wantError(t, a.Client.Do("GET", "/api/series/"+unknownID+"/mention-candidates", nil), 404, "notFound")
	wantInvalid(t, a.Client.Do("GET", "/api/series/"+f.ID+"/mention-candidates?limit=51", nil), "limit")
}

// peerBody is a peer as GET /api/peers answers it.
type peerBody struct {
	ID            string   `json:"id"`
	UserID        string   `json:"userId"`
	Name          string   `json:"name"`
	FirstName     string   `json:"firstName"`
	LastName      string   `json:"lastName"`
	Company       string   `json:"company"`
	JobTitle      string   `json:"jobTitle"`
	InterestTags  []string `json:"interestTags"`
	Tags          []string `json:"tags"`
	Status        string   `json:"status"`
	Presence      *string  `json:"presence"`
	LastMessageOn *string  `json:"lastMessageOn"`
}

type peerPage struct {
	Results []peerBody `json:"results"`
	Total   int        `json:"total"`
}

func getPeers(t *testing.T, c *testenv.Client, query string) peerPage {
	t.Helper()
	r := c.Do("GET", "/api/peers?"+query, nil)
	wantStatus(t, r, 200)
	var p peerPage
	r.JSON(t, &p)
	return p
}

// peerNames are the last names of a page's peers, in order.
func peerNames(p peerPage) []string {
	out := []string{}
	for _, r := range p.Results {
		out = append(out, r.LastName)
	}
	return out
}

// chatPeer is a fresh member of the given communities alone (out of the
// demo community newMember puts them in), with words of their own in
// every field the peer search reads.
type chatPeer struct {
	member
	First, Last, Company, Job, Tag string
}

func newChatPeer(t *testing.T, env *testenv.Env, first string, communities ...string) chatPeer {
	t.Helper()
	p := chatPeer{member: newMember(t, env, "Peer"), First: first, Last: surname(), Company: surname(), Job: surname(), Tag: surname()}
	exec(t, env, "DELETE FROM community_memberships WHERE profile_id = $1", p.ProfileID)
	for _, c := range communities {
		join(t, env, c, "member", p.ProfileID)
	}
	exec(t, env, `UPDATE users SET first_name = $2, last_name = $3, company = $4, job_title = $5, interest_tags = $6 WHERE id = $1`,
		p.UserID, p.First, p.Last, p.Company, p.Job, []string{p.Tag})
	return p
}

// TestPeers: the private chat's peers (spec 002 §4, §5) are the other
// active members of the caller's communities, online first then by last
// name, paged; the search box finds them by the criterion's fields alone,
// every comma- or space-separated term matching, with typos forgiven.
func TestPeers(t *testing.T) {
	env, _ := testenv.NewSearch(t)
	admin := env.As(t, adminEmail)
	circleA, circleB, elsewhere := newCommunity(t, env), newCommunity(t, env), newCommunity(t, env)
	me := newChatPeer(t, env, "Mia", circleA, circleB)
	a1 := newChatPeer(t, env, "Ada", circleA)
	a2 := newChatPeer(t, env, "Abe", circleA)
	b1 := newChatPeer(t, env, "Bea", circleB)
	both := newChatPeer(t, env, "Bo", circleA, circleB)
	stranger := newChatPeer(t, env, "Sam", elsewhere)
	invited := newChatPeer(t, env, "Ivy", elsewhere)
	join(t, env, circleA, "member", invited.ProfileID)
	exec(t, env, "UPDATE community_memberships SET status = 'pending' WHERE profile_id = $1 AND community_id = $2", invited.ProfileID, circleA)
	loner := newChatPeer(t, env, "Lone")
	forum := createForum(t, admin, circleA)
	expertise := surname()
	exec(t, env, "UPDATE series SET name = $2 WHERE id = $1", forum.ID, expertise)
	exec(t, env, "INSERT INTO series_memberships (series_id, profile_id, is_expert) VALUES ($1, $2, true)", forum.ID, a2.ProfileID)
	exec(t, env, "INSERT INTO online_users (user_id, nodes) VALUES ($1, 1)", b1.UserID)
	peers := []chatPeer{a1, a2, b1, both}

	// The list comes from Postgres: online first, then by last name.
	offline := []chatPeer{a1, a2, both}
	sort.Slice(offline, func(i, j int) bool { return strings.ToLower(offline[i].Last) < strings.ToLower(offline[j].Last) })
	want := []string{b1.Last}
	for _, p := range offline {
		want = append(want, p.Last)
	}
	list := getPeers(t, me.Client, "")
	if got := peerNames(list); list.Total != 4 || !slices.Equal(got, want) {
		t.Fatalf("peers %v (total %d), want %v: two communities' active members, not the caller, a stranger nor an invitee", got, list.Total, want)
	}
	for _, r := range list.Results {
		online := r.UserID == b1.UserID
		if r.ID != r.UserID || r.Name != r.FirstName+" "+r.LastName || !slices.Equal(r.Tags, r.InterestTags) || len(r.Tags) != 1 ||
			r.LastMessageOn != nil || (r.Status == "online") != online || (r.Presence != nil) != online {
			t.Errorf("peer %+v", r)
		}
	}
	if p := getPeers(t, me.Client, "criterion=name&q="+url.QueryEscape(" , ")); p.Total != 4 {
		t.Errorf("separators alone listed %d, want every peer", p.Total)
	}
	for page, names := range [][]string{want[:3], want[3:], {}} {
		p := getPeers(t, me.Client, "pageSize=3&page="+strconv.Itoa(page+1))
		if got := peerNames(p); p.Total != 4 || !slices.Equal(got, names) {
			t.Errorf("page %d: %v (total %d), want %v", page+1, got, p.Total, names)
		}
	}
	if p := getPeers(t, loner.Client, ""); p.Total != 0 || len(p.Results) != 0 {
		t.Errorf("someone of no community has peers: %+v", p)
	}

	// The search waits for the index: every peer by its tag, the expert
	// by the forum's name.
	search := func(criterion, q string) []string {
		return peerNames(getPeers(t, me.Client, "criterion="+criterion+"&q="+url.QueryEscape(q)))
	}
	eventually(t, func() bool {
		for _, p := range peers {
			if !slices.Equal(search("tags", p.Tag), []string{p.Last}) {
				return false
			}
		}
		return slices.Equal(search("expertise", expertise), []string{a2.Last})
	})
	lower := strings.ToLower
	for _, c := range []struct {
		criterion, q string
		want         []string
	}{
		{"name", a1.Last, []string{a1.Last}},
		{"name", "ada " + lower(a1.Last), []string{a1.Last}},
		{"name", misspell(a1.Last), []string{a1.Last}},
		{"name", a1.Company, nil},
		{"org", a1.Company, []string{a1.Last}},
		{"org", a1.Job, nil},
		{"job", a1.Job, []string{a1.Last}},
		{"job", a1.Tag, nil},
		{"expertise", misspell(expertise), []string{a2.Last}},
		{"expertise", a2.Job, nil},
		{"tags", a1.Tag, []string{a1.Last}},
		{"tags", a1.Last, nil},
		{"all", a1.Last + "," + lower(a1.Company) + " " + a1.Job, []string{a1.Last}},
		{"all", a1.Last + ", " + a2.Company, nil},
		{"all", expertise, []string{a2.Last}},
		{"", b1.Company, []string{b1.Last}},
		{"all", stranger.Last, nil},
		{"all", invited.Tag, nil},
		{"all", me.Last, nil},
		{"all", "%", nil},
	} {
		got := search(c.criterion, c.q)
		if len(got) != len(c.want) || (len(got) > 0 && !slices.Equal(got, c.want)) {
			t.Errorf("%s %q found %v, want %v", c.criterion, c.q, got, c.want)
		}
	}
	// Matches are sorted as the list is: online first.
	if got := search("all", "zy"); !slices.Equal(got, want) {
		t.Errorf("a prefix of every name found %v, want %v", got, want)
	}

	for _, bad := range []struct{ query, field string }{
		{"criterion=shoe", "criterion"},
		{"pageSize=0", "pageSize"},
		{"pageSize=10000", "pageSize"},
		{"page=0", "page"},
		{"pageSize=x", "pageSize"},
		{"q=" + strings.Repeat("a", 201), "q"},
	} {
		wantInvalid(t, me.Client.Do("GET", "/api/peers?"+bad.query, nil), bad.field)
	}
	if got := peerNames(getPeers(t, me.Client, "")); !slices.Equal(got, want) {
		t.Errorf("after refused calls: %v, want %v", got, want)
	}
	wantStatus(t, env.Client(t).Do("GET", "/api/peers", nil), 401)

	// A peer who left is dropped at once, even while the index still has
	// them: matches are read back from Postgres.
	exec(t, env, "UPDATE community_memberships SET status = 'pending' WHERE profile_id = $1", a1.ProfileID)
	if got := search("tags", a1.Tag); len(got) != 0 {
		t.Errorf("a peer who left was found: %v", got)
	}
}
