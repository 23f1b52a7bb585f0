package testenv

import (
	"testing"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"agora/app"
	"agora/internal/plumbing/config"
	"agora/projections"
	"agora/projections/insights"
	"agora/projections/projectiontest"
)

// Insights is an API server whose insights reports read a warehouse
// database of the test's own, filled by the analytics projection from the
// binary's pipeline (StartPipeline), as in agora dev. The projection runs
// in a consumer group of the test's own, so it reads the topics from the
// first offset: the relay's snapshot and every change since bring in what
// the shared database holds.
type Insights struct {
	*Env
	*Projector
	Warehouse  driver.Conn
	Projection *insights.Projection
}

// NewInsights starts the pipeline, the warehouse database, the analytics
// projection and the server.
func NewInsights(t testing.TB, options ...func(*config.Config)) *Insights {
	t.Helper()
	conn, _ := Warehouse(t)
	return NewInsightsOn(t, conn, options...)
}

// NewInsightsOn is NewInsights over the warehouse database conn (one on
// the test's OwnWarehouse, say).
func NewInsightsOn(t testing.TB, conn driver.Conn, options ...func(*config.Config)) *Insights {
	t.Helper()
	return NewInsightsOnPipeline(t, StartPipeline(t), conn, options...)
}

// NewInsightsOnPipeline is NewInsightsOn with the projection reading p
// (the test's StartOwnPipeline, say).
func NewInsightsOnPipeline(t testing.TB, p *projectiontest.Pipeline, conn driver.Conn, options ...func(*config.Config)) *Insights {
	t.Helper()
	proj, err := insights.New(conn, shared.db.Pool, projectiontest.Logger())
	if err != nil {
		t.Fatal(err)
	}
	// A group of its own: under the shared "insights" group a later test's
	// warehouse would get only what changed after the earlier test ended.
	proj = proj.Named(Unique(insights.Name))
	i := &Insights{Warehouse: conn, Projector: newProjector(p), Projection: proj}
	// The API serves the projector's metrics, and its /readyz the
	// projection's state, as in agora dev.
	reg := app.NewRegistry()
	i.Runner.Metrics = projections.NewMetrics(reg)
	i.Run(t, proj)
	t.Cleanup(i.Stop)
	i.Env = serve(t, []app.APIOption{app.WithWarehouse(conn), app.WithRegistry(reg)}, options)
	return i
}

// ServeWarehouse starts another API server over the shared database whose
// reports read conn (a warehouse another projection fills).
func (i *Insights) ServeWarehouse(t testing.TB, conn driver.Conn) *Env {
	t.Helper()
	return serve(t, []app.APIOption{app.WithWarehouse(conn)}, nil)
}
