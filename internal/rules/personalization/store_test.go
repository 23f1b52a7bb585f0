package personalization_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/internal/rules/personalization"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func TestStoredNone(t *testing.T) {
	env := testenv.New(t)
	got, err := personalization.Stored(t.Context(), env.DB.Pool, uuid.New())
	if err != nil || string(got) != "{}" {
		t.Fatalf("Stored(unknown) = %s, %v; want {}", got, err)
	}
}

// TestMerge: the one write sets, keeps and removes keys, creates the row
// of a user who has none, and writes nothing when it changes nothing.
func TestMerge(t *testing.T) {
	env := testenv.New(t)
	ctx, pool := t.Context(), env.DB.Pool
	var user uuid.UUID
	if err := pool.QueryRow(ctx, `SELECT id FROM users WHERE email_key = 'outsider@demo.agora'`).Scan(&user); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `DELETE FROM user_personalization WHERE user_id = $1`, user); err != nil {
		t.Fatal(err)
	}
	stored := func() map[string]any {
		t.Helper()
		raw, err := personalization.Stored(ctx, pool, user)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	updatedOn := func() time.Time {
		t.Helper()
		var on time.Time
		if err := pool.QueryRow(ctx, `SELECT updated_on FROM user_personalization WHERE user_id = $1`, user).Scan(&on); err != nil {
			t.Fatal(err)
		}
		return on
	}
	on := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	merge := func(set map[string]string, remove []string) int {
		t.Helper()
		raw := map[string]json.RawMessage{}
		for k, v := range set {
			raw[k] = json.RawMessage(v)
		}
		on = on.Add(time.Minute)
		size, err := personalization.Merge(ctx, pool, user, raw, remove, on)
		if err != nil {
			t.Fatal(err)
		}
		return size
	}

	// A user with none: the row is made with the keys set.
	size := merge(map[string]string{personalization.EmailMentions: "false", personalization.DigestHour: "7"}, nil)
	want := `{"notifications.digest.hour": 7, "notifications.email.mentions": false}`
	if size != len(want) {
		t.Errorf("size = %d, want %d (%s)", size, len(want), want)
	}
	if got := stored(); len(got) != 2 || got[personalization.EmailMentions] != false || got[personalization.DigestHour] != 7.0 {
		t.Fatalf("after the first merge: %v", got)
	}
	// Another key set, one removed, the third kept; a nil set is no set.
	merge(map[string]string{personalization.TimeZone: `"Europe/Paris"`}, []string{personalization.DigestHour})
	merge(nil, []string{"no.such.key"})
	if got := stored(); len(got) != 2 || got[personalization.EmailMentions] != false || got[personalization.TimeZone] != "Europe/Paris" {
		t.Fatalf("after set and remove: %v", got)
	}
	// The same merge again changes nothing and writes nothing.
	before := updatedOn()
	if size := merge(map[string]string{personalization.EmailMentions: "false"}, nil); size != 0 {
		t.Errorf("a merge that changes nothing answered size %d, want 0", size)
	}
	if after := updatedOn(); !after.Equal(before) {
		t.Errorf("a merge that changes nothing moved updated_on from %v to %v", before, after)
	}
	// What Read makes of it.
	s := personalization.Read(mustStored(t, env, user))
	if s.EmailMentions || !s.EmailPrivateChats || s.Zone.String() != "Europe/Paris" || s.Hour != 8 {
		t.Errorf("Read after the merges = %+v", s)
	}
}

func mustStored(t *testing.T, env *testenv.Env, user uuid.UUID) []byte {
	t.Helper()
	raw, err := personalization.Stored(t.Context(), env.DB.Pool, user)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
