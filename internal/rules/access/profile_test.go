package access_test

import (
	"testing"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// TestProfileReaders checks who may see a profile on the demo's rows (and
// a few added for the rule's corners): ProfileVisible, as the profile
// reads ask it of a profile row, against the rule written out here over
// the same rows; and PersonReader, as the live events about a person ask
// it, against ProfileVisible: a person's readers are those who may read
// one of their profiles, the person and super users.
func TestProfileReaders(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := env.DB.Pool.Exec(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	// A registered person with a profile in the demo organization and
	// only a pending membership of one of its communities: its admins
	// read it, and so do the community's active members (their membership
	// counts whatever its status); an invited profile without a person.
	person, lone, invited := uuid.New(), uuid.New(), uuid.New()
	exec(`INSERT INTO users (id, email, email_key, first_name, last_name, password_hash)
		VALUES ($1, $2, $2, 'Lone', 'Person', 'x')`, person, person.String()+"@example.com")
	exec(`INSERT INTO profiles (id, organization_id, user_id, role, email, email_key, first_name, last_name)
		SELECT $1, organization_id, $2, 'member', $3, $3, 'Lone', 'Person' FROM communities WHERE name = 'Product Leadership Circle'`,
		lone, person, person.String()+"@example.com")
	exec(`INSERT INTO community_memberships (community_id, profile_id, status)
		SELECT id, $1, 'pending' FROM communities WHERE name = 'Product Leadership Circle'`, lone)
	exec(`INSERT INTO profiles (id, organization_id, role, email, email_key, first_name, last_name)
		SELECT $1, organization_id, 'member', $2, $2, 'Invited', 'Person' FROM communities WHERE name = 'Data & AI Practitioners'`,
		invited, invited.String()+"@example.com")

	type profile struct {
		id, org uuid.UUID
		user    *uuid.UUID
		role    string
	}
	var profiles []profile
	rows, err := env.DB.Pool.Query(ctx, "SELECT id, organization_id, user_id, role FROM profiles")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var p profile
		if err := rows.Scan(&p.id, &p.org, &p.user, &p.role); err != nil {
			t.Fatal(err)
		}
		profiles = append(profiles, p)
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	type membership struct {
		profile, community uuid.UUID
		active             bool
	}
	var memberships []membership
	rows, err = env.DB.Pool.Query(ctx, "SELECT profile_id, community_id, status = 'active' FROM community_memberships")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var m membership
		if err := rows.Scan(&m.profile, &m.community, &m.active); err != nil {
			t.Fatal(err)
		}
		memberships = append(memberships, m)
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	users := map[uuid.UUID]bool{} // id → super
	rows, err = env.DB.Pool.Query(ctx, "SELECT id, role = 'super' FROM users")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id uuid.UUID
		var super bool
		if err := rows.Scan(&id, &super); err != nil {
			t.Fatal(err)
		}
		users[id] = super
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}

	// The rule, written out over the rows: why viewer may read p, or "".
	owns := func(viewer uuid.UUID, p profile) bool { return p.user != nil && *p.user == viewer }
	why := func(viewer uuid.UUID, super bool, p profile) string {
		switch {
		case super:
			return "super"
		case owns(viewer, p):
			return "own"
		}
		for _, theirs := range memberships {
			if theirs.profile != p.id {
				continue
			}
			for _, ours := range memberships {
				if !ours.active || ours.community != theirs.community {
					continue
				}
				for _, mine := range profiles {
					if mine.id == ours.profile && owns(viewer, mine) {
						return "community"
					}
				}
			}
		}
		for _, mine := range profiles {
			if owns(viewer, mine) && mine.org == p.org && mine.role == "admin" {
				return "organization admin"
			}
		}
		return ""
	}

	seen := map[string]int{}
	for viewer, super := range users {
		visible := map[uuid.UUID]bool{}
		// IS TRUE: for a profile without a person the rule may be NULL,
		// which a WHERE reads as false.
		got, err := db.All[struct {
			ID      uuid.UUID
			Visible bool
		}](ctx, env.DB.Pool, SELECT(table.Profiles.ID.AS("id"), access.ProfileVisible(viewer, super).IS_TRUE().AS("visible")).FROM(table.Profiles))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range got {
			visible[r.ID] = r.Visible
		}
		readersOf := map[uuid.UUID]bool{} // person → viewer may read one of their profiles
		for _, p := range profiles {
			reason := why(viewer, super, p)
			if visible[p.id] != (reason != "") {
				t.Errorf("viewer %s (super %v), profile %s: ProfileVisible %v, the rule says %q", viewer, super, p.id, visible[p.id], reason)
			}
			if reason == "" {
				reason = "hidden"
			}
			seen[reason]++
			if p.user != nil && visible[p.id] {
				readersOf[*p.user] = true
			}
		}

		u := table.Users
		people, err := db.All[struct {
			ID     uuid.UUID
			Reader bool
		}](ctx, env.DB.Pool, SELECT(u.ID.AS("id"), access.PersonReader(u.ID, UUID(viewer), Bool(super)).AS("reader")).FROM(u))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range people {
			want := r.ID == viewer || super || readersOf[r.ID]
			if r.Reader != want {
				t.Errorf("viewer %s (super %v), person %s: PersonReader %v, want %v (the readers of their profiles)", viewer, super, r.ID, r.Reader, want)
			}
		}
	}
	// The rows exercise every branch of the rule.
	for _, reason := range []string{"super", "own", "community", "organization admin", "hidden"} {
		if seen[reason] == 0 {
			t.Errorf("no viewer and profile where the reason is %q: %v", reason, seen)
		}
	}
	t.Logf("pairs by reason: %v", seen)

	// The corners, by name: the lone person's pending membership still
	// shows them to the circle's members; the invited profile, whose
	// community they are not in, only to its organization's admins and the
	// super user.
	var circleMember uuid.UUID
	if err := env.DB.Pool.QueryRow(ctx, "SELECT id FROM users WHERE email_key = 'member@demo.agora'").Scan(&circleMember); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		profile uuid.UUID
		want    bool
	}{{"the lone person's profile", lone, true}, {"the invited profile", invited, false}} {
		var got bool
		if err := db.QueryRow(ctx, env.DB.Pool, SELECT(access.ProfileVisible(circleMember, false).IS_TRUE()).FROM(table.Profiles).
			WHERE(table.Profiles.ID.EQ(UUID(c.profile)))).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("member@demo.agora reads %s: %v, want %v", c.name, got, c.want)
		}
	}
}
