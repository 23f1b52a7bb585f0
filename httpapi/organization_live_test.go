package httpapi_test

import (
	"encoding/json"
	"testing"
	"time"

	"agora/app/testenv"
	"agora/httpapi/openapi"
	"agora/projections/realtime"
)

// TestHubOrganizationEvents: an organization created, edited and deleted
// through the API reaches, through the relay, the broker and the realtime
// projection, the sockets of its people and of super users, and nobody
// else's.
func TestHubOrganizationEvents(t *testing.T) {
	pipe := testenv.StartPipeline(t)
	env := testenv.NewLive(t, testenv.Live{Pipeline: pipe})
	super := env.As(t, superEmail)
	s, o := dial(t, env, "", bearer(super.Token)), dial(t, env, "", bearer(env.As(t, outsiderEmail).Token))
	name := testenv.Unique("Live Org")
	org := createOrg(t, env, name)
	key := "organization:" + org
	about := func(event string) func(hubMsg) bool {
		return func(m hubMsg) bool { return m.Event == event && m.ContextKey == key }
	}
	valid := func(t *testing.T, m hubMsg) {
		t.Helper()
		p, _ := json.Marshal(m.Data.Payload)
		if err := openapi.ValidateSchema("LiveOrganization", p); err != nil {
			t.Errorf("%s: %v\n%s", m.Event, err, m.Raw)
		}
	}
	m := s.waitFor(liveWait, "organization.created", about(realtime.OrganizationCreated))
	valid(t, m)
	if m.Payload["name"] != name || m.Payload["id"] != org {
		t.Errorf("created: %s", m.Raw)
	}

	admin := orgPerson(t, env, org, "admin", "LiveOrgAdmin")
	a := dial(t, env, "", bearer(admin.Client.Token))
	wantStatus(t, super.Do("PATCH", "/api/organizations/"+org, map[string]any{"name": name + " Renamed"}), 204)
	for who, h := range map[string]*hubConn{"admin": a, "super": s} {
		m := h.waitFor(liveWait, "organization.updated at the "+who, func(m hubMsg) bool {
			return about(realtime.OrganizationUpdated)(m) && m.Payload["name"] == name+" Renamed"
		})
		valid(t, m)
	}

	wantStatus(t, super.Do("DELETE", "/api/organizations/"+org, nil), 204)
	for who, h := range map[string]*hubConn{"admin": a, "super": s} {
		m := h.waitFor(liveWait, "organization.deleted at the "+who, about(realtime.OrganizationDeleted))
		if m.Payload["id"] != org {
			t.Errorf("deleted: %s", m.Raw)
		}
	}
	// The super user is told once; nobody outside heard anything.
	s.none(500*time.Millisecond, "a second deletion at the super user", about(realtime.OrganizationDeleted))
	o.none(0, "an organization event outside it", func(m hubMsg) bool { return m.ContextKey == key })
}
