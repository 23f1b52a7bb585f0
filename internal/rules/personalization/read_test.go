package personalization_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/internal/rules/personalization"
)

func TestReadDefaults(t *testing.T) {
	want := personalization.Settings{
		EmailMentions: true, EmailPrivateChats: true,
		PushMentions: true, PushPrivateChats: true, PushComments: true,
		Digest: personalization.Daily, Insights: personalization.Weekly,
		Hour: 8, Weekday: time.Monday, Zone: time.UTC,
		Read: []uuid.UUID{}, Dismissed: []uuid.UUID{},
	}
	// Nothing stored, an empty object, and what is not an object all read
	// as the defaults; so do values of the wrong kind.
	for _, data := range []string{``, `{}`, `[]`, `null`, `{"notifications.email.mentions": "no",
		"notifications.digest.frequency": "hourly", "notifications.digest.hour": 24,
		"notifications.digest.weekday": 1.5, "notifications.timezone": "Local",
		"notifications.posts.lastSeenAt": "yesterday", "notifications.posts.read": "x"}`} {
		if got := personalization.Read([]byte(data)); !reflect.DeepEqual(got, want) {
			t.Errorf("Read(%q) = %+v, want the defaults %+v", data, got, want)
		}
	}
}

func TestReadValues(t *testing.T) {
	a, b := uuid.New(), uuid.New()
	got := personalization.Read([]byte(`{
		"notifications.email.mentions": false, "notifications.email.privateChats": false,
		"notifications.push.mentions": false, "notifications.push.privateChats": false, "notifications.push.comments": false,
		"notifications.digest.frequency": "weekly", "notifications.insights.frequency": "off",
		"notifications.digest.hour": 0, "notifications.digest.weekday": 6,
		"notifications.timezone": "Europe/Paris",
		"notifications.posts.lastSeenAt": "2026-03-01T10:20:30.5Z",
		"notifications.posts.read": ["` + a.String() + `", "not-a-uuid"],
		"notifications.posts.dismissed": ["` + b.String() + `"],
		"feed.webLink.dontConfirmNavigation": true}`))
	paris, _ := time.LoadLocation("Europe/Paris")
	want := personalization.Settings{
		Digest: personalization.Weekly, Insights: personalization.Off,
		Hour: 0, Weekday: time.Saturday, Zone: paris,
		LastSeenAt: time.Date(2026, 3, 1, 10, 20, 30, 5e8, time.UTC),
		// An entry that is not a UUID is left out, the others kept.
		Read: []uuid.UUID{a}, Dismissed: []uuid.UUID{b},
	}
	if got.Zone.String() != want.Zone.String() {
		t.Errorf("Zone = %v, want %v", got.Zone, want.Zone)
	}
	got.Zone, want.Zone = nil, nil
	if !got.LastSeenAt.Equal(want.LastSeenAt) {
		t.Errorf("LastSeenAt = %v, want %v", got.LastSeenAt, want.LastSeenAt)
	}
	got.LastSeenAt, want.LastSeenAt = time.Time{}, time.Time{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Read = %+v, want %+v", got, want)
	}
}

// TestReadKeepsCheck: every key with a default reads as its default when
// absent, and each default passes Check, so a default is a value a PATCH
// could have stored.
func TestReadKeepsCheck(t *testing.T) {
	for key, v := range personalization.Defaults {
		if !personalization.Known(key) {
			t.Errorf("default of unknown key %q", key)
		}
		raw, _ := json.Marshal(v)
		if why := personalization.Check(key, raw); why != "" {
			t.Errorf("default %s = %v: %s", key, v, why)
		}
	}
}

// TestSwitch: each boolean key reads its own field; an empty key and a key
// that is no switch are off.
func TestSwitch(t *testing.T) {
	for _, key := range []string{personalization.EmailMentions, personalization.EmailPrivateChats,
		personalization.PushMentions, personalization.PushPrivateChats, personalization.PushComments} {
		s := personalization.Read([]byte(`{"` + key + `": false}`))
		if s.Switch(key) {
			t.Errorf("%s stored false reads on", key)
		}
		if !personalization.Read(nil).Switch(key) {
			t.Errorf("%s unset reads off, its default is on", key)
		}
		for _, other := range []string{personalization.EmailMentions, personalization.PushComments} {
			if other != key && !s.Switch(other) {
				t.Errorf("%s stored false turned %s off", key, other)
			}
		}
	}
	for _, key := range []string{"", "notifications.digest.frequency", "nope"} {
		if personalization.Read(nil).Switch(key) {
			t.Errorf("Switch(%q) is on", key)
		}
	}
}
