package httpapi_test

import (
	"strconv"
	"testing"

	"agora/app/testenv"
	"agora/internal/plumbing/config"
)

// TestInvitationResentIsNotMailedAgain: an invitation re-sent 25 times
// (the probe's case) mails the invitee once; each re-send within
// AGORA_INVITATION_RESEND_AFTER answers that the person was already
// invited, and issues no new link. Before, it was 25 mails.
func TestInvitationResentIsNotMailedAgain(t *testing.T) {
	env := testenv.New(t)
	f := newShareFixture(t, env)
	email := freshAddress("Resent")
	p := queryString(t, env, `INSERT INTO profiles (id, organization_id, email, email_key, first_name, last_name)
		SELECT gen_random_uuid(), organization_id, $1, lower($1), 'Rita', 'Resent' FROM communities WHERE id = $2 RETURNING id::text`, email, f.community)
	shareAssign(t, f.commAdmin.Client, f.community, "member", p)
	tokens := env.Count(t, "tokens", "profile_id = $1", p)
	for i := range 25 {
		c := f.commAdmin.Client
		if i%2 == 1 {
			c = f.orgAdmin // another admin re-sending counts the same
		}
		r := c.Do("POST", "/api/communities/"+f.community+"/invitations", map[string]any{"profileIds": []string{p}})
		wantStatus(t, r, 200)
		var n struct{ Invited, Skipped, AlreadyInvited int }
		r.JSON(t, &n)
		if want := (struct{ Invited, Skipped, AlreadyInvited int }{Invited: 1}); i > 0 {
			want = struct{ Invited, Skipped, AlreadyInvited int }{AlreadyInvited: 1}
			if n != want {
				t.Fatalf("re-send %d answers %+v, want %+v", i, n, want)
			}
		} else if n != want {
			t.Fatalf("the first invitation answers %+v, want %+v", n, want)
		}
	}
	if ms := mailbox(t, env, email); len(ms) != 1 {
		t.Errorf("%d mails for 25 sendings, want 1", len(ms))
	}
	if n := env.Count(t, "tokens", "profile_id = $1", p); n != tokens+1 {
		t.Errorf("%d new invitation links, want 1", n-tokens)
	}
}

// TestInvitationsPerActorPerDay: a community admin adding outside
// addresses with an invitation each (the probe's 15) mails at most
// AGORA_INVITATIONS_PER_ACTOR_PER_DAY of them; the next is 429
// tooManyRequests with Retry-After, and saves and mails nothing; a call
// inviting more people than the day has left sends nothing either.
func TestInvitationsPerActorPerDay(t *testing.T) {
	const limit = 10
	// The fixture's people are invited by the demo admin, on a server
	// of the default test limits; the calls counted go to a server of
	// this test's limit, over the same database.
	base := testenv.New(t)
	f := newShareFixture(t, base)
	env := testenv.New(t, func(c *config.Config) { c.MailLimits.InvitationsPerActorPerDay = limit })
	on := func(c *testenv.Client) *testenv.Client {
		o := env.Client(t)
		o.Token = c.Token
		return o
	}
	admin := on(f.commAdmin.Client)
	add := func(i int) *testenv.Response {
		return admin.Do("POST", "/api/communities/"+f.community+"/profiles", map[string]any{
			"firstName": "Out", "lastName": "Sider" + strconv.Itoa(i), "email": freshAddress("Outside" + strconv.Itoa(i)), "sendInvitation": true})
	}
	mails := env.Count(t, "dev_mail", "")
	for i := range limit {
		wantStatus(t, add(i), 201)
	}
	if n := env.Count(t, "dev_mail", "") - mails; n != limit {
		t.Fatalf("%d invitations mailed, want %d", n, limit)
	}
	before := f.digest(t)
	for i := limit; i < 15; i++ {
		r := add(i)
		wantError(t, r, 429, "tooManyRequests")
		if s, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || s < 1 || s > 24*3600 {
			t.Errorf("Retry-After %q", r.Header.Get("Retry-After"))
		}
	}
	// A person added without an invitation is not counted, and their
	// invitation later is refused the same way.
	r := admin.Do("POST", "/api/communities/"+f.community+"/profiles", map[string]any{
		"firstName": "Quiet", "lastName": "One", "email": freshAddress("Quiet")})
	wantStatus(t, r, 201)
	var quiet struct{ ID string }
	r.JSON(t, &quiet)
	after := f.digest(t)
	wantError(t, admin.Do("POST", "/api/communities/"+f.community+"/invitations", map[string]any{"profileIds": []string{quiet.ID}}), 429, "tooManyRequests")
	if f.digest(t) != after {
		t.Error("a refused invitation wrote")
	}
	if after == before {
		t.Fatal("the quiet person was not added")
	}
	if n := env.Count(t, "dev_mail", "") - mails; n != limit {
		t.Errorf("%d invitations mailed past the limit of %d", n, limit)
	}
	// Another admin has a day of their own.
	wantStatus(t, on(communityAdmin(t, base, f.community).Client).Do("POST", "/api/communities/"+f.community+"/invitations", map[string]any{"profileIds": []string{quiet.ID}}), 200)
}
