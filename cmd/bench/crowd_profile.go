package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"sort"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
)

// Where a live event's time goes, step by step: the realtime projection's
// stage histograms (projections.Metrics.Stages) read over each window,
// beside the post's time to the sockets the crowd measures itself; and,
// with -crowd-profile, a CPU profile of this process (the API, the
// pipeline and the load) over each window.
var crowdProfileFlag = flag.String("crowd-profile", "", "crowd benchmark: a folder to write a CPU profile of each step's window to (crowd-N.pprof)")

// stageMetric is the runner's per-stage histogram.
const stageMetric = "agora_projection_stage_seconds"

// crowdStages is a reading of the realtime projections' stage histograms:
// per stage, the cumulative count of each bucket's upper bound.
type crowdStages map[string]*stageHistogram

type stageHistogram struct {
	bounds []float64 // seconds, increasing
	counts []uint64  // cumulative, one per bound
	total  uint64
}

// readStages reads reg's stage histograms of the projections named
// realtime.*, summed over them (one per API node).
func readStages(reg *prometheus.Registry) (crowdStages, error) {
	families, err := reg.Gather()
	if err != nil {
		return nil, err
	}
	out := crowdStages{}
	for _, f := range families {
		if f.GetName() != stageMetric {
			continue
		}
		for _, m := range f.GetMetric() {
			var projection, stage string
			for _, l := range m.GetLabel() {
				switch l.GetName() {
				case "projection":
					projection = l.GetValue()
				case "stage":
					stage = l.GetValue()
				}
			}
			if !strings.HasPrefix(projection, "realtime.") {
				continue
			}
			h := m.GetHistogram()
			s := out[stage]
			if s == nil {
				s = &stageHistogram{}
				for _, b := range h.GetBucket() {
					s.bounds = append(s.bounds, b.GetUpperBound())
				}
				s.counts = make([]uint64, len(s.bounds))
				out[stage] = s
			}
			for i, b := range h.GetBucket() {
				s.counts[i] += b.GetCumulativeCount()
			}
			s.total += h.GetSampleCount()
		}
	}
	return out, nil
}

// since is what was observed between an earlier reading and this one.
func (s crowdStages) since(before crowdStages) crowdStages {
	out := crowdStages{}
	for stage, h := range s {
		d := &stageHistogram{bounds: h.bounds, counts: append([]uint64(nil), h.counts...), total: h.total}
		if b := before[stage]; b != nil {
			for i := range d.counts {
				d.counts[i] -= b.counts[i]
			}
			d.total -= b.total
		}
		out[stage] = d
	}
	return out
}

// quantile is the q-quantile (0..1) in seconds, interpolated within its
// bucket; observations past the last bound read as that bound.
func (h *stageHistogram) quantile(q float64) float64 {
	if h.total == 0 {
		return 0
	}
	rank := q * float64(h.total)
	lower, below := 0.0, uint64(0)
	for i, c := range h.counts {
		if float64(c) >= rank {
			in := c - below
			if in == 0 {
				return h.bounds[i]
			}
			return lower + (h.bounds[i]-lower)*(rank-float64(below))/float64(in)
		}
		lower, below = h.bounds[i], c
	}
	return h.bounds[len(h.bounds)-1]
}

// row is the stages' p50/p99 in milliseconds, in the change's order.
func (s crowdStages) row() string {
	names := []string{"relay", "broker", "apply"}
	for stage := range s {
		if !slices.Contains(names, stage) {
			names = append(names, stage)
		}
	}
	sort.SliceStable(names[3:], func(i, j int) bool { return names[3+i] < names[3+j] })
	var parts []string
	n := uint64(0)
	for _, stage := range names {
		h := s[stage]
		if h == nil {
			continue
		}
		n = max(n, h.total)
		parts = append(parts, fmt.Sprintf("%s %.1f/%.1f", stage, 1000*h.quantile(0.5), 1000*h.quantile(0.99)))
	}
	if len(parts) == 0 {
		return "live path: no change reached the realtime projection"
	}
	return fmt.Sprintf("live path p50/p99 ms, commit → realtime projection (%d changes): %s; then the hub and the socket (the post column)", n, strings.Join(parts, " · "))
}

// startStepProfile starts a CPU profile of step n into -crowd-profile's
// folder; the returned func stops it. Without the flag it does nothing.
func startStepProfile(n int) (stop func(), err error) {
	if *crowdProfileFlag == "" {
		return func() {}, nil
	}
	if err := os.MkdirAll(*crowdProfileFlag, 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(filepath.Join(*crowdProfileFlag, fmt.Sprintf("crowd-%d.pprof", n)))
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
