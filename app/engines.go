package app

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/jackc/pgx/v5"

	"agora/deploy"
	"agora/httpapi"
	"agora/internal/standins/kafkaserver"
)

// EnginesOptions shape the real engines of the change pipeline on one
// machine.
type EnginesOptions struct {
	// Dir holds the brokers' and Connect's folders (kafka/, connect/).
	Dir string
	// DatabaseURL is the database Debezium captures; its user needs the
	// REPLICATION attribute (the private cluster's superuser has it).
	DatabaseURL string
	// Brokers is the number of KRaft brokers: 1 (agora dev) or 3 (the
	// tests' topology: replication factor 3, min.insync.replicas 2).
	Brokers int
	Log     *slog.Logger
}

// RealEngines are Apache Kafka's brokers and Kafka Connect running
// Debezium's Postgres connector, configured from deploy/'s connector file:
// what deploy/ runs, started as child processes instead of containers.
type RealEngines struct {
	Kafka   *kafkaserver.Cluster
	Connect *kafkaserver.Connect
}

// StartRealEngines starts the brokers, then Connect with the connector,
// and returns once the connector's task runs (its snapshot of a new slot
// follows behind).
func StartRealEngines(ctx context.Context, o EnginesOptions) (*RealEngines, error) {
	db, err := pgx.ParseConfig(o.DatabaseURL)
	if err != nil {
		return nil, fmt.Errorf("engines: %w", err)
	}
	k, err := kafkaserver.Start(ctx, kafkaserver.Options{Dir: filepath.Join(o.Dir, "kafka"), Brokers: o.Brokers, Log: o.Log.With("part", "kafka")})
	if err != nil {
		return nil, err
	}
	c, err := kafkaserver.StartConnect(ctx, kafkaserver.ConnectOptions{
		Dir: filepath.Join(o.Dir, "connect"), Brokers: k.Brokers(), Log: o.Log.With("part", "connect"),
		Connector: deploy.ConnectorFor(db.Host, int(db.Port), db.User, db.Database),
		Env:       []string{"POSTGRES_PASSWORD=" + db.Password},
	})
	if err != nil {
		k.Close()
		return nil, err
	}
	return &RealEngines{Kafka: k, Connect: c}, nil
}

// Slot is the replication slot Debezium reads (deploy's slot.name), which
// agora projector rebuild and check wait on.
func (e *RealEngines) Slot() string { return deploy.Connector()["slot.name"] }

// Versions name the engines and their versions, for /readyz.
func (e *RealEngines) Versions() map[string]string {
	return map[string]string{
		"kafka":    kafkaserver.KafkaVersion,
		"connect":  kafkaserver.ConnectVersion,
		"debezium": kafkaserver.DebeziumVersion,
	}
}

// Engines are the engines in the order a change passes them, with their
// roles, for /readyz.
func (e *RealEngines) Engines() []httpapi.Engine {
	v := e.Versions()
	return []httpapi.Engine{
		{Role: "capture", Name: "Debezium", Version: v["debezium"]},
		{Role: "runtime", Name: "Kafka Connect", Version: v["connect"]},
		{Role: "broker", Name: "Kafka", Version: v["kafka"]},
	}
}

// Close stops Connect (it flushes its offsets), then the brokers.
func (e *RealEngines) Close() {
	e.Connect.Close()
	e.Kafka.Close()
}
