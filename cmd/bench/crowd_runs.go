package main

import (
	"fmt"
	"strings"
	"time"
)

// crowdRun is one run of the crowd's steps: each step measured, the last
// that held and why the next did not.
type crowdRun struct {
	steps    []crowdStep
	capacity int    // 0 when the first step failed
	failed   string // "" when every step held
}

// summary is the run's capacity line; holds says what a step must meet.
func (r crowdRun) summary(first int, holds string) string {
	var at crowdStep
	for _, s := range r.steps {
		if s.n == r.capacity {
			at = s
		}
	}
	switch {
	case r.capacity == 0:
		return fmt.Sprintf("crowd capacity: below %d members (%s)", first, r.failed)
	case r.failed == "":
		return fmt.Sprintf("crowd capacity: at least %d members, every step held (%s); %s%s", r.capacity, holds, at.posts(), at.homes())
	default:
		return fmt.Sprintf("crowd capacity: %d members (%s; %s); %s%s", r.capacity, holds, r.failed, at.posts(), at.homes())
	}
}

// crowdSpread is how the runs compare, step by step: how many held, and
// the median and range across runs of the calls' average and p99, of a
// post's p99 to the sockets and of the browsers' home page p95. A verdict
// that one run gives and the next does not is no verdict.
func crowdSpread(runs []crowdRun, steps []int) string {
	var b strings.Builder
	caps := make([]string, len(runs))
	for i, r := range runs {
		caps[i] = fmt.Sprint(r.capacity)
	}
	fmt.Fprintf(&b, "crowd across %d runs: capacity %s members; by step, median (range) over the runs that reached it:\n", len(runs), strings.Join(caps, ", "))
	for _, n := range steps {
		var at []crowdStep
		held := 0
		for _, r := range runs {
			for _, s := range r.steps {
				if s.n == n {
					at = append(at, s)
					if s.fails() == "" {
						held++
					}
				}
			}
		}
		if len(at) == 0 {
			continue
		}
		lost := 0
		for _, s := range at {
			lost += s.lost
		}
		line := fmt.Sprintf("%6d held in %d of %d runs · calls avg %s, p99 %s · post to sockets p99 %s, %d lost",
			n, held, len(at),
			spread(at, func(s crowdStep) (time.Duration, bool) { return s.all.mean(), s.all.n() > 0 }),
			spread(at, func(s crowdStep) (time.Duration, bool) { return s.all.p(99), s.all.n() > 0 }),
			spread(at, func(s crowdStep) (time.Duration, bool) { return s.delivery.p(99), s.delivery.n() > 0 }), lost)
		if at[0].browsers != nil {
			line += " · home page p95 " + spread(at, func(s crowdStep) (time.Duration, bool) {
				if s.browsers == nil {
					return 0, false
				}
				return s.browsers.interactive.p(95), s.browsers.interactive.n() > 0
			})
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// spread is spreadMS of f over the steps that have the figure (a step
// whose window saw no post has no post-to-sockets time).
func spread(steps []crowdStep, f func(crowdStep) (time.Duration, bool)) string {
	var ds []time.Duration
	for _, s := range steps {
		if d, ok := f(s); ok {
			ds = append(ds, d)
		}
	}
	return spreadMS(ds)
}
