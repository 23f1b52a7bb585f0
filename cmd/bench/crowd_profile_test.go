package main

import (
	"math"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"agora/projections"
)

// TestCrowdStages reads the runner's stage histogram as the crowd does:
// the realtime projections' only, over a window, with quantiles inside
// their buckets.
func TestCrowdStages(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := projections.NewMetrics(reg)
	relay := m.Stages.WithLabelValues("realtime.node-1", "relay")
	m.Stages.WithLabelValues("search", "relay").Observe(5) // another projection: not read
	relay.Observe(0.001)
	before, err := readStages(reg)
	if err != nil {
		t.Fatal(err)
	}
	for range 99 {
		relay.Observe(0.010)
	}
	relay.Observe(2)
	after, err := readStages(reg)
	if err != nil {
		t.Fatal(err)
	}
	w := after.since(before)["relay"]
	if w == nil || w.total != 100 {
		t.Fatalf("the window's relay stage: %+v, want 100 observations", w)
	}
	if p50 := w.quantile(0.5); math.Abs(p50-0.010) > 0.003 {
		t.Errorf("p50 %.4f s, want about 0.010", p50)
	}
	if p := w.quantile(1); p < 1.5 || p > 2.5 {
		t.Errorf("max %.3f s, want about 2", p)
	}
	if got := after["relay"].total; got != 101 {
		t.Errorf("all of realtime's relay stage: %d, want 101 (the search projection's left out)", got)
	}
}
