package relay

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the relay's Prometheus metrics.
type Metrics struct {
	// Messages counts change events Kafka acknowledged (snapshot reads
	// included).
	Messages prometheus.Counter
	// Delay is the time from a transaction's commit in Postgres to Kafka
	// acknowledging all of its events.
	Delay prometheus.Histogram
	// Confirmed is the LSN last confirmed to Postgres, as a number: the
	// slot's progress.
	Confirmed prometheus.Gauge
}

// NewMetrics creates the metrics and registers them with reg (when not nil).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		Messages: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "agora_relay_messages_total",
			Help: "Change events the relay wrote to Kafka and Kafka acknowledged.",
		}),
		Delay: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "agora_relay_commit_to_kafka_seconds",
			Help:    "Time from a transaction's commit in Postgres to Kafka acknowledging its events.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 16),
		}),
		Confirmed: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "agora_relay_confirmed_lsn",
			Help: "The WAL position (LSN as a number) the relay last confirmed to Postgres.",
		}),
	}
	if reg != nil {
		reg.MustRegister(m.Messages, m.Delay, m.Confirmed)
	}
	return m
}
