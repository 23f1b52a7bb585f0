package httpapi_test

import (
	"testing"

	"agora/app/testenv"
)

// TestFormTextRefusesControls: the one-line fields of an organization, a
// community and a forum (their names) refuse CR/LF, TAB, BEL and a
// right-to-left override, and their descriptions (and a member's bio)
// every control character but the line break, and the bidi overrides:
// each is a 400 validationFailed naming the field, and nothing is saved.
// Before, those names and descriptions reached invitation mails as sent.
func TestFormTextRefusesControls(t *testing.T) {
	env := testenv.New(t)
	super := env.As(t, superEmail)
	org := createOrg(t, env, testenv.Unique("Text Org"))
	r := super.Do("POST", "/api/organizations/"+org+"/communities", map[string]any{"name": testenv.Unique("Text"), "description": "Line one\nLine two"})
	wantStatus(t, r, 201)
	var c struct {
		ID string `json:"id"`
	}
	r.JSON(t, &c)
	forum := createForum(t, super, c.ID)
	member := newMember(t, env, "Bio")

	oneLine := map[string]string{"CR/LF and a header": "Book club\r\nBcc: all@evil.test", "a TAB": "Book\tclub",
		"a BEL": "Book\aclub", "a right-to-left override": "Book \u202Ebulc"}
	multiLine := map[string]string{"a lone CR": "Line one\rBcc: all@evil.test", "a TAB": "Col\tumn",
		"a BEL": "Ring\a", "a right-to-left override": "Read \u202Esdrawkcab", "an isolate": "x\u2066y\u2069"}
	snapshot := func() string {
		return queryString(t, env, `SELECT md5(concat_ws('|',
			(SELECT name FROM organizations WHERE id = $1),
			(SELECT name || description FROM communities WHERE id = $2),
			(SELECT name || description FROM series WHERE id = $3),
			(SELECT coalesce(bio, '') FROM users WHERE id = $4),
			(SELECT count(*)::text FROM communities), (SELECT count(*)::text FROM series), (SELECT count(*)::text FROM organizations)))`,
			org, c.ID, forum.ID, member.UserID)
	}
	before := snapshot()
	for what, bad := range oneLine {
		for _, call := range []struct {
			name, method, path string
			body               map[string]any
		}{
			{"new organization", "POST", "/api/organizations", map[string]any{"name": bad}},
			{"organization renamed", "PATCH", "/api/organizations/" + org, map[string]any{"name": bad}},
			{"new community", "POST", "/api/organizations/" + org + "/communities", map[string]any{"name": bad, "description": "fine"}},
			{"community renamed", "PATCH", "/api/communities/" + c.ID, map[string]any{"name": bad}},
			{"new forum", "POST", "/api/communities/" + c.ID + "/series", map[string]any{"name": bad, "description": "fine"}},
			{"forum renamed", "PATCH", "/api/series/" + forum.ID, map[string]any{"name": bad}},
		} {
			t.Run(call.name+" with "+what, func(t *testing.T) {
				wantInvalid(t, super.Do(call.method, call.path, call.body), "name")
			})
		}
	}
	for what, bad := range multiLine {
		for _, call := range []struct {
			name, method, path, field string
			body                      map[string]any
			c                         *testenv.Client
		}{
			{"new community", "POST", "/api/organizations/" + org + "/communities", "description", map[string]any{"name": "Fine", "description": bad}, super},
			{"community described", "PATCH", "/api/communities/" + c.ID, "description", map[string]any{"description": bad}, super},
			{"new forum", "POST", "/api/communities/" + c.ID + "/series", "description", map[string]any{"name": "Fine", "description": bad}, super},
			{"forum described", "PATCH", "/api/series/" + forum.ID, "description", map[string]any{"description": bad}, super},
			{"bio", "PATCH", "/api/users/me", "bio", map[string]any{"bio": bad}, member.Client},
		} {
			t.Run(call.name+" with "+what, func(t *testing.T) {
				wantInvalid(t, call.c.Do(call.method, call.path, call.body), call.field)
			})
		}
	}
	if snapshot() != before {
		t.Fatal("a refused text was saved")
	}
	// Line breaks stay a description's own, a CR LF pasted as one.
	wantStatus(t, super.Do("PATCH", "/api/series/"+forum.ID, map[string]any{"description": "Rules:\r\n1. Be kind\n2. Cite"}), 200)
	if got := queryString(t, env, "SELECT description FROM series WHERE id = $1", forum.ID); got != "Rules:\n1. Be kind\n2. Cite" {
		t.Errorf("a multi-line description is stored as %q", got)
	}
}
