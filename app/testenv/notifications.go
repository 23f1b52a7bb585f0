package testenv

import (
	"testing"

	"agora/app"
	"agora/internal/plumbing/config"
	"agora/live"
	"agora/projections/notifications"
	"agora/projections/projectiontest"
)

// Notifications is an API server with live events whose notifications are
// written by the notifications projection from the binary's pipeline
// (StartPipeline), as in agora dev. The notifications table is the shared
// database's, so the projection keeps its group, "notifications", from
// test to test, like a projector restarted: it goes on from where the
// previous test's stopped (the first one reads the relay's snapshot), and
// writes the notifications of what other tests did in between.
type Notifications struct {
	*Env
	*Projector
	Projection *notifications.Projection
}

// NewNotifications starts the pipeline, the notifications projection and
// the server, which runs the realtime projection on the same pipeline.
func NewNotifications(t testing.TB, options ...func(*config.Config)) *Notifications {
	t.Helper()
	p := StartPipeline(t)
	proj, err := notifications.New(shared.db.Pool, projectiontest.Logger())
	if err != nil {
		t.Fatal(err)
	}
	n := &Notifications{Projector: newProjector(p), Projection: proj}
	n.Run(t, proj)
	t.Cleanup(n.Stop)
	n.Env = serve(t, []app.APIOption{app.WithBrokers(p.Brokers), app.WithRealtime(live.HubOptions{}, 0)}, options)
	return n
}
