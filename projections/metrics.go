package projections

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the runner's Prometheus metrics, labelled by projection.
type Metrics struct {
	// Lag is the messages of a partition not yet applied: its end offset
	// minus the consumer group's committed offset, measured every
	// Config.LagInterval (by every projector that runs the projection, so
	// take the max across them, not the sum).
	Lag *prometheus.GaugeVec
	// Apply is how long applying a batch took.
	Apply *prometheus.HistogramVec
	// Delay is the time from the commit in Postgres to the change being
	// applied: the pipeline's end-to-end latency.
	Delay *prometheus.HistogramVec
	// Stages splits Delay by stage (label stage): "relay" from the commit
	// to the change's message (its producer's time), "broker" from the
	// message to the projection receiving it, "apply" from receiving it
	// to its batch applied. Where a live event's time goes.
	Stages *prometheus.HistogramVec
	// Changes counts applied changes by operation.
	Changes *prometheus.CounterVec
	// Retries counts failed attempts that were retried.
	Retries *prometheus.CounterVec
	// DeadLetters counts changes sent to the dead-letter topic.
	DeadLetters *prometheus.CounterVec
	// Health is each projection's state (healthy, retrying, stalled) and
	// lag, for /readyz; it collects agora_projection_state and
	// agora_projection_retrying_seconds.
	Health *Health
}

// NewMetrics creates the metrics and registers them with reg (when not nil).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		Lag: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "agora_projection_consumer_lag",
			Help: "Messages of a partition not yet applied by a projection: the end offset minus its committed offset.",
		}, []string{"projection", "topic", "partition"}),
		Apply: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "agora_projection_apply_seconds",
			Help:    "Time a projection took to apply one batch of changes.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 16),
		}, []string{"projection"}),
		Delay: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "agora_projection_commit_to_apply_seconds",
			Help:    "Time from the Postgres commit of a change to its projection applying it.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 16),
		}, []string{"projection"}),
		Stages: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "agora_projection_stage_seconds",
			Help: "Time a change spent in each stage from its Postgres commit to its projection applying it: relay, broker, apply.",
			// Finer than Delay's: a stage's p99 is read from them.
			Buckets: prometheus.ExponentialBuckets(0.0005, 1.25, 48),
		}, []string{"projection", "stage"}),
		Changes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "agora_projection_changes_total",
			Help: "Changes applied by a projection.",
		}, []string{"projection", "op"}),
		Retries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "agora_projection_retries_total",
			Help: "Failed attempts to apply a change that were retried.",
		}, []string{"projection"}),
		DeadLetters: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "agora_projection_dead_letters_total",
			Help: "Changes sent to a projection's dead-letter topic.",
		}, []string{"projection"}),
		Health: NewHealth(),
	}
	if reg != nil {
		reg.MustRegister(m.Lag, m.Apply, m.Delay, m.Stages, m.Changes, m.Retries, m.DeadLetters, m.Health)
	}
	return m
}
