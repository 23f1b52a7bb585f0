package kafkaserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"agora/internal/standins/childproc"
)

// ConnectOptions shape a Kafka Connect worker running one connector.
type ConnectOptions struct {
	// Dir holds the worker's configuration, its source offsets and its log.
	Dir string
	// Brokers is the Kafka cluster's bootstrap list.
	Brokers []string
	// Connector is the connector's configuration, name included (the
	// content of deploy/debezium/agora-postgres.json, with the database's
	// address for this machine). Values may read the environment with
	// ${env:NAME}, as deploy's do.
	Connector map[string]string
	// Env is added to the worker's environment (what ${env:…} reads).
	Env []string
	// HeapMB is the worker's JVM heap; 512 when 0.
	HeapMB int
	Log    *slog.Logger
}

// Connect is a running standalone Kafka Connect worker with Debezium's
// plugins on its plugin path. Standalone: its source offsets are a file
// in Dir (flushed every second), so a worker killed and started again
// resumes from the last flushed offset, replaying at most that second's
// records (the projections are idempotent).
type Connect struct {
	o    ConnectOptions
	port int
	name string

	childproc.Supervised
}

// StartConnect starts the worker and returns once its connector and task
// are RUNNING (Debezium's snapshot, on a new slot, runs behind that).
func StartConnect(ctx context.Context, o ConnectOptions) (*Connect, error) {
	if o.HeapMB <= 0 {
		o.HeapMB = 512
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return nil, err
	}
	o.Dir = dir
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	c := &Connect{o: o, name: o.Connector["name"]}
	if c.name == "" {
		return nil, errors.New("kafkaserver: the connector's configuration has no name")
	}
	childproc.StopOrphan(c.pidFile(), c.workerFile(), o.Log)
	begin := time.Now()
	err = childproc.StartRetrying(ctx, o.Log, "kafka connect", 300*time.Millisecond, func() error {
		ports, err := childproc.FreePorts(1)
		if err != nil {
			return err
		}
		c.port = ports[0]
		if err := c.launch(); err != nil {
			return err
		}
		if err := c.waitRunning(ctx, 3*time.Minute); err != nil {
			_ = c.stop()
			c.Resume()
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	go c.Watch(o.Log, "kafka connect", c.logFile(), func() error {
		if err := c.launch(); err != nil {
			return err
		}
		return c.waitRunning(context.Background(), 3*time.Minute)
	}, c.stop)
	o.Log.Info("kafka connect started", "connector", c.name, "connect", ConnectVersion, "debezium", DebeziumVersion, "rest", c.URL(), "took", time.Since(begin).Round(time.Millisecond))
	return c, nil
}

func (c *Connect) workerFile() string    { return filepath.Join(c.o.Dir, "worker.properties") }
func (c *Connect) connectorFile() string { return filepath.Join(c.o.Dir, c.name+".properties") }
func (c *Connect) pidFile() string       { return filepath.Join(c.o.Dir, "connect.pid") }
func (c *Connect) logFile() string       { return filepath.Join(c.o.Dir, "connect.log") }

// URL is the worker's REST API.
func (c *Connect) URL() string { return "http://127.0.0.1:" + strconv.Itoa(c.port) }

// LogFile is the worker's log, for a test's failure message.
func (c *Connect) LogFile() string { return c.logFile() }

// launch writes the worker's and the connector's properties and starts
// the JVM; it does not wait for the connector.
func (c *Connect) launch() error {
	plugins, err := installed("debezium", DebeziumVersion)
	if err != nil {
		return err
	}
	worker := map[string]string{
		"bootstrap.servers":              strings.Join(c.o.Brokers, ","),
		"key.converter":                  "org.apache.kafka.connect.json.JsonConverter",
		"value.converter":                "org.apache.kafka.connect.json.JsonConverter",
		"key.converter.schemas.enable":   "false",
		"value.converter.schemas.enable": "false",
		"offset.storage.file.filename":   filepath.Join(c.o.Dir, "offsets"),
		"offset.flush.interval.ms":       "1000",
		"plugin.path":                    plugins,
		"listeners":                      c.URL(),
		// The connector's producer.override.acks=all needs the policy.
		"connector.client.config.override.policy": "All",
		"config.providers":                        "env",
		"config.providers.env.class":              "org.apache.kafka.common.config.provider.EnvVarConfigProvider",
	}
	if err := childproc.WriteFile(c.workerFile(), properties(worker), 0o644); err != nil {
		return err
	}
	if err := childproc.WriteFile(c.connectorFile(), properties(c.o.Connector), 0o600); err != nil {
		return err
	}
	cmd, out, err := javaCommand("connect", ConnectVersion, c.o.Dir, c.logFile(), c.o.HeapMB, "org.apache.kafka.connect.cli.ConnectStandalone", c.workerFile(), c.connectorFile())
	if err != nil {
		return err
	}
	cmd.Env = append(os.Environ(), c.o.Env...)
	exited, err := childproc.Start(cmd)
	out.Close()
	if err != nil {
		return fmt.Errorf("kafkaserver: start kafka connect: %w", err)
	}
	c.Started(cmd, exited)
	return childproc.WriteFile(c.pidFile(), strconv.Itoa(cmd.Process.Pid)+"\n", 0o644)
}

// Status is the connector's and its tasks' states, as Connect's REST API
// reports them ("RUNNING", "FAILED"…), and a failed task's trace.
type Status struct {
	Connector struct {
		State string `json:"state"`
	} `json:"connector"`
	Tasks []struct {
		ID    int    `json:"id"`
		State string `json:"state"`
		Trace string `json:"trace"`
	} `json:"tasks"`
}

// Status asks the worker for its connector's status.
func (c *Connect) Status(ctx context.Context) (Status, error) {
	var s Status
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.URL()+"/connectors/"+c.name+"/status", nil)
	if err != nil {
		return s, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return s, err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return s, fmt.Errorf("connector status: %s: %s", res.Status, body)
	}
	return s, json.Unmarshal(body, &s)
}

// waitRunning waits until the connector and all its tasks run, at most
// wait; a task that failed ends the wait with its trace's first line.
func (c *Connect) waitRunning(ctx context.Context, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	var last error
	for {
		select {
		case <-c.Exited():
			return fmt.Errorf("kafkaserver: kafka connect exited during start; see %s", c.logFile())
		default:
		}
		s, err := c.Status(ctx)
		switch {
		case err != nil:
			last = err
		case s.Connector.State == "RUNNING" && len(s.Tasks) > 0 && allRunning(s):
			return nil
		default:
			last = fmt.Errorf("connector %s, tasks %v", s.Connector.State, s.Tasks)
			for _, t := range s.Tasks {
				if t.State == "FAILED" {
					first, _, _ := strings.Cut(t.Trace, "\n")
					return fmt.Errorf("kafkaserver: connector task %d failed: %s (see %s)", t.ID, first, c.logFile())
				}
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("kafkaserver: connector not running: %w (see %s)", last, c.logFile())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func allRunning(s Status) bool {
	for _, t := range s.Tasks {
		if t.State != "RUNNING" {
			return false
		}
	}
	return true
}

// Kill kills the worker with SIGKILL, as a crash would; its supervision
// starts it again, and the connector resumes from its flushed offsets.
func (c *Connect) Kill() error { return kill(&c.Supervised, "kafka connect") }

// stop asks the worker to shut down (SIGTERM: it flushes its offsets
// first) and waits, then kills it.
func (c *Connect) stop() error { return stop(&c.Supervised, c.pidFile()) }

// Close stops the worker.
func (c *Connect) Close() { _ = c.stop() }

// properties writes m as a Java properties file, keys sorted, with the
// escapes the format needs (backslash, and a value's leading space).
func properties(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	esc := strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	for _, k := range keys {
		v := esc.Replace(m[k])
		if strings.HasPrefix(v, " ") {
			v = `\` + v
		}
		b.WriteString(esc.Replace(k) + "=" + v + "\n")
	}
	return b.String()
}
