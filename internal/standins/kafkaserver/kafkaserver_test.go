package kafkaserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	kafkago "github.com/segmentio/kafka-go"

	"agora/internal/standins/pgserver"
)

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// The package's tests share one 3-broker cluster per test binary: a
// broker is a JVM that takes tens of seconds to start on a 2-core machine,
// and starting brokers for each test made the package slow in CI. Tests
// keep apart by their topics, new on every run (runs).
var (
	clusterOnce sync.Once
	cluster     *Cluster
	clusterDir  string
	clusterErr  error
	runs        atomic.Int64
)

// TestMain stops the shared cluster, if a test started it.
func TestMain(m *testing.M) {
	code := m.Run()
	if cluster != nil {
		cluster.Close()
	}
	if clusterDir != "" {
		if code == 0 {
			_ = os.RemoveAll(clusterDir)
		} else {
			fmt.Fprintf(os.Stderr, "kafka cluster kept in %s\n", clusterDir)
		}
	}
	os.Exit(code)
}

// sharedCluster starts the 3 brokers on its first call and returns them.
func sharedCluster(t *testing.T) *Cluster {
	t.Helper()
	needInstalled(t)
	clusterOnce.Do(func() {
		if clusterDir, clusterErr = os.MkdirTemp("", "agora-kafkaserver-cluster-"); clusterErr != nil {
			return
		}
		// Not the first test's context: the cluster outlives it.
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cluster, clusterErr = Start(ctx, Options{Dir: filepath.Join(clusterDir, "kafka"), Brokers: 3, Log: quietLog()})
	})
	if clusterErr != nil {
		t.Fatal(clusterErr)
	}
	return cluster
}

func needInstalled(t *testing.T) {
	t.Helper()
	for _, n := range [][2]string{{"kafka", KafkaVersion}, {"connect", ConnectVersion}, {"debezium", DebeziumVersion}} {
		if _, err := installed(n[0], n[1]); errors.Is(err, ErrNotInstalled) {
			t.Fatal(err, " (make test installs them)")
		}
	}
}

// produce writes one message per value to topic with acks=all.
func produce(ctx context.Context, brokers []string, topic string, values ...string) error {
	w := &kafkago.Writer{Addr: kafkago.TCP(brokers...), Topic: topic, RequiredAcks: kafkago.RequireAll, BatchTimeout: time.Millisecond, MaxAttempts: 20}
	defer w.Close()
	msgs := make([]kafkago.Message, len(values))
	for i, v := range values {
		msgs[i] = kafkago.Message{Key: []byte(v), Value: []byte(v)}
	}
	return w.WriteMessages(ctx, msgs...)
}

// Three brokers replicate a topic three times: with one killed (kill -9)
// writes with acks=all still succeed (2 in sync), the broker is started
// again by its supervision on the same port and data, and a consumer reads
// every message. At least once, not exactly once: kafka-go has no
// idempotent producer, so a batch in flight to the killed leader may be
// written again by the retry (the relay's consumers are idempotent).
func TestThreeBrokersSurviveAKill(t *testing.T) {
	// The cluster first: its start has a timeout of its own, not this
	// test's.
	c := sharedCluster(t)
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	topic := fmt.Sprintf("t%d", runs.Add(1))
	conn, err := kafkago.DialContext(ctx, "tcp", c.Brokers()[0])
	if err != nil {
		t.Fatal(err)
	}
	ctrl, err := conn.Controller()
	conn.Close()
	if err != nil {
		t.Fatal(err)
	}
	client := &kafkago.Client{Addr: kafkago.TCP(c.Brokers()...)}
	res, err := client.CreateTopics(ctx, &kafkago.CreateTopicsRequest{Topics: []kafkago.TopicConfig{{Topic: topic, NumPartitions: 4, ReplicationFactor: -1}}})
	if err != nil || res.Errors[topic] != nil {
		t.Fatalf("create topic (controller %v): %v %v", ctrl, err, res)
	}
	if err := produce(ctx, c.Brokers(), topic, "a", "b", "c"); err != nil {
		t.Fatal(err)
	}
	victim := c.Nodes()[1]
	before := victim.Restarts()
	if err := victim.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := produce(ctx, c.Brokers(), topic, "d", "e", "f"); err != nil {
		t.Fatalf("acks=all with one broker of three down: %v", err)
	}
	for victim.Restarts() == before {
		if ctx.Err() != nil {
			t.Fatal("the killed broker was not started again")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := c.WaitReady(ctx, time.Minute); err != nil {
		t.Fatal(err)
	}
	meta, err := client.Metadata(ctx, &kafkago.MetadataRequest{Topics: []string{topic}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(meta.Topics[0].Partitions[0].Replicas); n != 3 {
		t.Fatalf("replicas = %d, want 3", n)
	}
	seen := map[string]int{}
	for p := range 4 {
		r := kafkago.NewReader(kafkago.ReaderConfig{Brokers: c.Brokers(), Topic: topic, Partition: p})
		last, err := client.ListOffsets(ctx, &kafkago.ListOffsetsRequest{Topics: map[string][]kafkago.OffsetRequest{topic: {kafkago.LastOffsetOf(p)}}})
		if err != nil {
			t.Fatal(err)
		}
		for range last.Topics[topic][0].LastOffset {
			m, err := r.ReadMessage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			seen[string(m.Value)]++
		}
		r.Close()
	}
	if len(seen) != 6 {
		t.Fatalf("read %v, want a…f", seen)
	}
}

// Kafka Connect runs Debezium's Postgres connector from the installed
// plugin folder, on the shared 3-broker cluster: an insert reaches the
// table's topic in Debezium's envelope, and after a kill -9 the worker is
// started again and goes on from its offsets.
func TestConnectCapturesPostgres(t *testing.T) {
	kc := sharedCluster(t)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	// Postgres runs as the postgres user, who must reach its folder
	// (t.TempDir's parent is 0700).
	dir, err := os.MkdirTemp("", "agora-kafkaserver-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if !t.Failed() {
			_ = os.RemoveAll(dir)
		}
	})
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	pg, err := pgserver.Start(ctx, filepath.Join(dir, "pg"), quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Stop()
	if err := pg.CreateDatabase(ctx, "cdc"); err != nil {
		t.Fatal(err)
	}
	db, err := pgx.Connect(ctx, pg.URL("cdc"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	if _, err := db.Exec(ctx, `CREATE TABLE notes (id int PRIMARY KEY, body text); INSERT INTO notes VALUES (1, 'before')`); err != nil {
		t.Fatal(err)
	}
	// The connector's name, slot and topic prefix are new on every run.
	prefix := fmt.Sprintf("t%d", runs.Add(1))
	u, _ := pgx.ParseConfig(pg.URL("cdc"))
	connect, err := StartConnect(ctx, ConnectOptions{
		Dir: filepath.Join(dir, "connect"), Brokers: kc.Brokers(), Log: quietLog(),
		Env: []string{"PGPASS=" + u.Password},
		Connector: map[string]string{
			"name": prefix, "connector.class": "io.debezium.connector.postgresql.PostgresConnector",
			"database.hostname": "127.0.0.1", "database.port": strconv.Itoa(pg.Port()), "database.user": u.User,
			"database.password": "${env:PGPASS}", "database.dbname": "cdc", "plugin.name": "pgoutput",
			"slot.name": prefix + "_slot", "publication.autocreate.mode": "all_tables", "topic.prefix": prefix,
			"key.converter": "org.apache.kafka.connect.json.JsonConverter", "key.converter.schemas.enable": "false",
			"value.converter": "org.apache.kafka.connect.json.JsonConverter", "value.converter.schemas.enable": "false",
			"topic.creation.default.partitions": "1", "topic.creation.default.replication.factor": "-1",
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer connect.Close()
	// A consumer group (kafka-go's JoinGroup, SyncGroup and commits
	// against Kafka 4.4) reads every partition the topic has.
	r := kafkago.NewReader(kafkago.ReaderConfig{Brokers: kc.Brokers(), Topic: prefix + ".public.notes", GroupID: prefix + "-reader", StartOffset: kafkago.FirstOffset})
	defer r.Close()
	read := func(want string) map[string]any {
		t.Helper()
		for {
			m, err := r.ReadMessage(ctx)
			if err != nil {
				t.Fatalf("waiting for %s: %v (see %s)", want, err, connect.LogFile())
			}
			var env struct {
				Op    string         `json:"op"`
				After map[string]any `json:"after"`
			}
			if err := json.Unmarshal(m.Value, &env); err != nil {
				t.Fatalf("%s: %v", m.Value, err)
			}
			if env.After["body"] == want {
				if !strings.Contains(string(m.Key), `"id"`) {
					t.Fatalf("key %s is not the primary key", m.Key)
				}
				return env.After
			}
		}
	}
	read("before") // the snapshot
	if _, err := db.Exec(ctx, `INSERT INTO notes VALUES (2, 'streamed')`); err != nil {
		t.Fatal(err)
	}
	read("streamed")
	time.Sleep(1500 * time.Millisecond) // an offset flush
	before := connect.Restarts()
	if err := connect.Kill(); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, `INSERT INTO notes VALUES (3, 'while down')`); err != nil {
		t.Fatal(err)
	}
	read("while down")
	if connect.Restarts() == before {
		t.Fatal("kafka connect was not started again")
	}
}

// A cluster id is 22 characters of URL-safe base64 and never begins with
// "-", which StorageTool's parser would take for an option.
func TestClusterIDs(t *testing.T) {
	for range 2000 {
		id := clusterID()
		if len(id) != 22 || id[0] == '-' || strings.Trim(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
			t.Fatalf("cluster id %q", id)
		}
	}
}
