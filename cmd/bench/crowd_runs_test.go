package main

import (
	"strings"
	"testing"
	"time"
)

// TestCrowdSpread: the runs are compared step by step, a step counting
// only the runs that reached it, with the median and range of each
// figure; a step one run failed says so.
func TestCrowdSpread(t *testing.T) {
	step := func(n int, avg, delivery time.Duration, lost int) crowdStep {
		return crowdStep{n: n, all: newResult([]time.Duration{avg}, time.Second), delivery: newResult([]time.Duration{delivery}, 0), lost: lost}
	}
	runs := []crowdRun{
		{steps: []crowdStep{step(400, 20*time.Millisecond, 40*time.Millisecond, 0), step(800, 60*time.Millisecond, 150*time.Millisecond, 0)}, capacity: 800},
		{steps: []crowdStep{step(400, 30*time.Millisecond, 50*time.Millisecond, 0), step(800, 70*time.Millisecond, 900*time.Millisecond, 3)}, capacity: 400, failed: "800 failed"},
		{steps: []crowdStep{step(400, 25*time.Millisecond, 45*time.Millisecond, 0)}, capacity: 400, failed: "800 failed"},
	}
	got := crowdSpread(runs, []int{400, 800, 1200})
	for _, want := range []string{
		"capacity 800, 400, 400 members",
		"   400 held in 3 of 3 runs · calls avg 25.0 ms (20.0–30.0), p99 25.0 ms (20.0–30.0) · post to sockets p99 45.0 ms (40.0–50.0), 0 lost",
		"   800 held in 1 of 2 runs · calls avg 60.0 ms (60.0–70.0)",
		"post to sockets p99 150.0 ms (150.0–900.0), 3 lost",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("spread lacks %q:\n%s", want, got)
		}
	}
	runs[2].steps[0].delivery = result{}
	if got := crowdSpread(runs, []int{400}); !strings.Contains(got, "post to sockets p99 40.0 ms (40.0–50.0)") {
		t.Errorf("a step with no post delivered counts in the spread:\n%s", got)
	}
	if strings.Contains(got, "1200") {
		t.Errorf("a step no run reached is shown:\n%s", got)
	}
}
