package projections

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// The states of a projection.
const (
	// StateHealthy: its last change applied (or was dead-lettered).
	StateHealthy = "healthy"
	// StateRetrying: a change keeps failing and is being retried.
	StateRetrying = "retrying"
	// StateStalled: retrying for longer than the stall threshold; its
	// target needs an operator.
	StateStalled = "stalled"
)

// State is what the runner knows of one projection.
type State struct {
	Projection string
	// State is StateHealthy, StateRetrying or StateStalled.
	State string
	// Since is when the change now retried first failed; zero when
	// healthy.
	Since time.Time
	// LastError is the latest failure of that change.
	LastError string
	// Lag is the messages of the projection's topics its consumer group
	// has not committed yet, as of the last measure; -1 before the first.
	Lag int64
}

// Health keeps the state of each projection the runner runs. It is a
// Prometheus collector of agora_projection_state (1 for the state a
// projection is in, 0 for the others) and
// agora_projection_retrying_seconds, and what /readyz reports.
type Health struct {
	mu sync.Mutex
	// stallAfter is how long a projection retries before it is stalled.
	stallAfter time.Duration
	states     map[string]*health
}

type health struct {
	since   time.Time // zero: healthy
	lastErr string
	lag     int64
}

// NewHealth keeps states that turn stalled after a minute of retrying
// (Config.StallAfter sets it).
func NewHealth() *Health {
	return &Health{stallAfter: time.Minute, states: map[string]*health{}}
}

// track makes name known, healthy until told otherwise, stalled after
// stallAfter of retrying.
func (h *Health) track(name string, stallAfter time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stallAfter = stallAfter
	h.get(name)
}

func (h *Health) get(name string) *health {
	s, ok := h.states[name]
	if !ok {
		s = &health{lag: -1}
		h.states[name] = s
	}
	return s
}

// retrying records a failed attempt of name's current change.
func (h *Health) retrying(name string, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.get(name)
	if s.since.IsZero() {
		s.since = time.Now()
	}
	s.lastErr = err.Error()
}

// healthy records that name went on past its current change.
func (h *Health) healthy(name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.get(name)
	s.since, s.lastErr = time.Time{}, ""
}

// setLag records name's lag.
func (h *Health) setLag(name string, lag int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.get(name).lag = lag
}

// States are the projections' states, by name.
func (h *Health) States() []State {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := time.Now()
	out := make([]State, 0, len(h.states))
	for name, s := range h.states {
		st := State{Projection: name, State: StateHealthy, Lag: s.lag}
		if !s.since.IsZero() {
			st.State, st.Since, st.LastError = StateRetrying, s.since, s.lastErr
			if now.Sub(s.since) >= h.stallAfter {
				st.State = StateStalled
			}
		}
		out = append(out, st)
	}
	slices.SortFunc(out, func(a, b State) int { return strings.Compare(a.Projection, b.Projection) })
	return out
}

var (
	stateDesc = prometheus.NewDesc("agora_projection_state",
		"1 for the state a projection is in (healthy, retrying, stalled), 0 for the others.", []string{"projection", "state"}, nil)
	retryingDesc = prometheus.NewDesc("agora_projection_retrying_seconds",
		"How long a projection has been retrying its current change; 0 when healthy.", []string{"projection"}, nil)
)

// Describe implements prometheus.Collector.
func (h *Health) Describe(ch chan<- *prometheus.Desc) {
	ch <- stateDesc
	ch <- retryingDesc
}

// Collect implements prometheus.Collector.
func (h *Health) Collect(ch chan<- prometheus.Metric) {
	now := time.Now()
	for _, s := range h.States() {
		for _, state := range []string{StateHealthy, StateRetrying, StateStalled} {
			v := 0.0
			if s.State == state {
				v = 1
			}
			ch <- prometheus.MustNewConstMetric(stateDesc, prometheus.GaugeValue, v, s.Projection, state)
		}
		retrying := 0.0
		if !s.Since.IsZero() {
			retrying = now.Sub(s.Since).Seconds()
		}
		ch <- prometheus.MustNewConstMetric(retryingDesc, prometheus.GaugeValue, retrying, s.Projection)
	}
}
