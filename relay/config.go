package relay

import (
	"log/slog"
	"time"

	"github.com/jackc/pglogrepl"

	"agora/internal/adapters/kafka"
)

// Defaults of Config.
const (
	DefaultSlot        = "agora_relay"
	DefaultPublication = "agora_cdc"
	DefaultTopicPrefix = "agora"
	// Version is what the relay writes as source.version.
	Version = "agora-relay-1"
)

// Excluded are the tables whose changes the relay does not emit: the
// migrations ledger, the relay's own bookkeeping, and the tables that hold
// secrets (an organization's identity client secret, the PKCE verifiers of
// single sign-on flows), which must never reach Kafka.
var Excluded = []string{"public.schema_migrations", "public.cdc_relay_state", "public.cdc_heartbeat",
	"public.identity_clients", "public.sso_flows"}

// HeartbeatQuery is the heartbeat.action.query of both the relay and the
// Debezium connector config.
const HeartbeatQuery = `INSERT INTO cdc_heartbeat (id, beat_on) VALUES (1, now()) ON CONFLICT (id) DO UPDATE SET beat_on = excluded.beat_on`

// Config configures a relay.
type Config struct {
	// DatabaseURL is a postgres:// URL of the database to capture.
	DatabaseURL string
	// Brokers are the Kafka bootstrap addresses.
	Brokers []string
	// Slot, Publication and TopicPrefix default to agora_relay, agora_cdc
	// and agora.
	Slot, Publication, TopicPrefix string
	// Partitions of the topics the relay creates (kafka.DefaultPartitions).
	Partitions int
	// HeartbeatInterval is how long the relay lets pass without a change
	// before it writes a heartbeat (default 10 s).
	HeartbeatInterval time.Duration
	// StatusInterval is how often the relay confirms its position to
	// Postgres (default 1 s).
	StatusInterval time.Duration
	// OnAck, when set, is called with every LSN the relay confirms (tests).
	OnAck func(pglogrepl.LSN)
	// Metrics, when set, receive the relay's figures.
	Metrics *Metrics
	Log     *slog.Logger
}

func (c *Config) defaults() {
	if c.Slot == "" {
		c.Slot = DefaultSlot
	}
	if c.Publication == "" {
		c.Publication = DefaultPublication
	}
	if c.TopicPrefix == "" {
		c.TopicPrefix = DefaultTopicPrefix
	}
	if c.Partitions < 1 {
		c.Partitions = kafka.DefaultPartitions
	}
	if c.HeartbeatInterval <= 0 {
		c.HeartbeatInterval = 10 * time.Second
	}
	if c.StatusInterval <= 0 {
		c.StatusInterval = time.Second
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.Metrics == nil {
		c.Metrics = NewMetrics(nil)
	}
}

// Topic is the topic of a table's changes: prefix.schema.table.
func Topic(prefix, schema, table string) string { return prefix + "." + schema + "." + table }

func excluded(qualified string) bool {
	for _, e := range Excluded {
		if e == qualified {
			return true
		}
	}
	return false
}
