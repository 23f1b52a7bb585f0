package kafkaserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	kafkago "github.com/segmentio/kafka-go"

	"agora/internal/standins/childproc"
)

// Options shape a cluster.
type Options struct {
	// Dir holds the cluster's state: one folder per broker, and the
	// cluster's id and ports (cluster.json), kept so that a start over an
	// earlier cluster's folder is that cluster again.
	Dir string
	// Brokers is the number of brokers, each also a KRaft controller (the
	// controllers are a quorum of all of them); 1 when 0.
	Brokers int
	// Partitions is the partition count of topics the brokers create by
	// themselves (num.partitions); 8 when 0, as the relay's and Debezium's.
	Partitions int
	// HeapMB is each broker's JVM heap; 512 when 0.
	HeapMB int
	Log    *slog.Logger
}

// Cluster is a running cluster of KRaft brokers.
type Cluster struct {
	o     Options
	state clusterState
	nodes []*Broker
}

// Broker is one broker of a cluster (and one controller of its quorum).
type Broker struct {
	c    *Cluster
	id   int
	dir  string
	port int
	mu   sync.Mutex

	// Supervised starts the broker again when it dies.
	childproc.Supervised
}

// clusterState is what stays the same across starts of one cluster.
type clusterState struct {
	ID    string `json:"id"`
	Ports []int  `json:"ports"` // broker i listens on Ports[2i], its controller on Ports[2i+1]
}

// Start starts the brokers of the cluster in o.Dir, formatting their
// storage on the first start, and returns once every broker is in the
// cluster's metadata. Replication factor and min.insync.replicas follow
// the size: 3 brokers replicate every topic (internal ones too) three times
// with 2 in sync required, 1 broker keeps one copy.
func Start(ctx context.Context, o Options) (*Cluster, error) {
	if o.Brokers <= 0 {
		o.Brokers = 1
	}
	if o.Partitions <= 0 {
		o.Partitions = 8
	}
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
	c := &Cluster{o: o}
	if err := c.loadState(); err != nil {
		return nil, err
	}
	for i := range o.Brokers {
		b := &Broker{c: c, id: i + 1, dir: filepath.Join(dir, "broker-"+strconv.Itoa(i+1)), port: c.state.Ports[2*i]}
		if err := os.MkdirAll(b.dir, 0o755); err != nil {
			return nil, err
		}
		childproc.StopOrphan(b.pidFile(), b.configFile(), o.Log)
		c.nodes = append(c.nodes, b)
	}
	if err := c.format(ctx); err != nil {
		return nil, err
	}
	begin := time.Now()
	for _, b := range c.nodes {
		if err := b.launch(); err != nil {
			c.Close()
			return nil, err
		}
	}
	if err := c.WaitReady(ctx, 2*time.Minute); err != nil {
		c.Close()
		return nil, err
	}
	for _, b := range c.nodes {
		go b.Watch(o.Log, "kafka broker "+strconv.Itoa(b.id), b.logFile(), func() error {
			if err := b.launch(); err != nil {
				return err
			}
			return b.waitListening(2 * time.Minute)
		}, b.stop)
	}
	o.Log.Info("kafka started", "version", KafkaVersion, "brokers", c.Brokers(), "took", time.Since(begin).Round(time.Millisecond))
	return c, nil
}

func (c *Cluster) stateFile() string { return filepath.Join(c.o.Dir, "cluster.json") }

// loadState reads the cluster's id and ports, or chooses them for a new
// cluster. The ports are kept: the controllers' quorum names them.
func (c *Cluster) loadState() error {
	if err := os.MkdirAll(c.o.Dir, 0o755); err != nil {
		return err
	}
	if data, err := os.ReadFile(c.stateFile()); err == nil {
		if err := json.Unmarshal(data, &c.state); err == nil && len(c.state.Ports) == 2*c.o.Brokers && c.state.ID != "" {
			return nil
		}
		return fmt.Errorf("kafkaserver: %s is not a cluster of %d brokers; remove the folder to start afresh", c.stateFile(), c.o.Brokers)
	}
	ports, err := childproc.FreePorts(2 * c.o.Brokers)
	if err != nil {
		return err
	}
	c.state = clusterState{ID: clusterID(), Ports: ports}
	data, _ := json.Marshal(c.state)
	return childproc.WriteFile(c.stateFile(), string(data)+"\n", 0o644)
}

// clusterID is a new cluster id as Kafka writes one: 16 random bytes in
// URL-safe base64 without padding (what StorageTool random-uuid prints),
// made here to save a JVM start. Not one that begins with "-": StorageTool's
// argument parser takes it for an option and refuses to format (seen: a
// start failed once in 64).
func clusterID() string {
	for {
		if id := randomClusterID(); id[0] != '-' {
			return id
		}
	}
}

func randomClusterID() string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	h := childproc.RandomHex(16)
	var bits, n uint
	var out strings.Builder
	for i := 0; i < len(h); i += 2 {
		v, _ := strconv.ParseUint(h[i:i+2], 16, 8)
		bits = bits<<8 | uint(v)
		n += 8
		for n >= 6 {
			out.WriteByte(alphabet[(bits>>(n-6))&63])
			n -= 6
		}
	}
	if n > 0 {
		out.WriteByte(alphabet[(bits<<(6-n))&63])
	}
	return out.String()
}

// format writes each broker's configuration and formats the storage of
// those never formatted (meta.properties absent), in parallel: each is a
// JVM start of a few seconds.
func (c *Cluster) format(ctx context.Context) error {
	var wg sync.WaitGroup
	errs := make([]error, len(c.nodes))
	for i, b := range c.nodes {
		if err := childproc.WriteFile(b.configFile(), b.properties(), 0o644); err != nil {
			return err
		}
		if _, err := os.Stat(filepath.Join(b.dataDir(), "meta.properties")); err == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd, out, err := javaCommand("kafka", KafkaVersion, b.dir, b.logFile(), 256, "kafka.tools.StorageTool",
				"format", "--ignore-formatted", "-t", c.state.ID, "-c", b.configFile())
			if err != nil {
				errs[i] = err
				return
			}
			defer out.Close()
			if err := cmd.Run(); err != nil {
				errs[i] = fmt.Errorf("kafkaserver: format broker %d: %w (see %s)", b.id, err, b.logFile())
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (b *Broker) configFile() string { return filepath.Join(b.dir, "server.properties") }
func (b *Broker) pidFile() string    { return filepath.Join(b.dir, "broker.pid") }
func (b *Broker) logFile() string    { return filepath.Join(b.dir, "broker.log") }
func (b *Broker) dataDir() string    { return filepath.Join(b.dir, "data") }

// Addr is the broker's listener.
func (b *Broker) Addr() string { return "127.0.0.1:" + strconv.Itoa(b.port) }

// ID is the broker's node id.
func (b *Broker) ID() int { return b.id }

// properties is the broker's server.properties.
func (b *Broker) properties() string {
	c := b.c
	rf, isr := 1, 1
	if len(c.nodes) >= 3 {
		rf, isr = 3, 2
	}
	var voters []string
	for i := range c.o.Brokers {
		voters = append(voters, fmt.Sprintf("%d@127.0.0.1:%d", i+1, c.state.Ports[2*i+1]))
	}
	ctrl := c.state.Ports[2*(b.id-1)+1]
	lines := []string{
		"process.roles=broker,controller",
		"node.id=" + strconv.Itoa(b.id),
		"controller.quorum.voters=" + strings.Join(voters, ","),
		fmt.Sprintf("listeners=PLAINTEXT://127.0.0.1:%d,CONTROLLER://127.0.0.1:%d", b.port, ctrl),
		fmt.Sprintf("advertised.listeners=PLAINTEXT://127.0.0.1:%d", b.port),
		"controller.listener.names=CONTROLLER",
		"inter.broker.listener.name=PLAINTEXT",
		"listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
		"log.dirs=" + b.dataDir(),
		"num.partitions=" + strconv.Itoa(c.o.Partitions),
		"default.replication.factor=" + strconv.Itoa(rf),
		"min.insync.replicas=" + strconv.Itoa(isr),
		"offsets.topic.replication.factor=" + strconv.Itoa(rf),
		"offsets.topic.num.partitions=8",
		"transaction.state.log.replication.factor=" + strconv.Itoa(rf),
		"transaction.state.log.min.isr=" + strconv.Itoa(isr),
		"share.coordinator.state.topic.replication.factor=" + strconv.Itoa(rf),
		"share.coordinator.state.topic.min.isr=" + strconv.Itoa(isr),
		"unclean.leader.election.enable=false",
		"auto.create.topics.enable=true",
		// A consumer group's first members join at once rather than
		// after the default 3 s wait for more.
		"group.initial.rebalance.delay.ms=0",
		// As the embedded broker allows: the tests' consumer groups use
		// sessions of 2 s, below Kafka's default floor of 6 s, where a
		// join is refused and nothing is consumed.
		"group.min.session.timeout.ms=1000",
		"num.network.threads=2",
		"num.io.threads=4",
		"num.recovery.threads.per.data.dir=1",
		"log.segment.bytes=67108864",
		"",
	}
	return strings.Join(lines, "\n")
}

// launch starts the broker's JVM; it does not wait for it to listen.
func (b *Broker) launch() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	cmd, out, err := javaCommand("kafka", KafkaVersion, b.dir, b.logFile(), b.c.o.HeapMB, "kafka.Kafka", b.configFile())
	if err != nil {
		return err
	}
	exited, err := childproc.Start(cmd)
	out.Close()
	if err != nil {
		return fmt.Errorf("kafkaserver: start broker %d: %w", b.id, err)
	}
	b.Started(cmd, exited)
	return childproc.WriteFile(b.pidFile(), strconv.Itoa(cmd.Process.Pid)+"\n", 0o644)
}

// waitListening waits until the broker accepts connections and answers a
// metadata request, at most wait.
func (b *Broker) waitListening(wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		select {
		case <-b.Exited():
			return fmt.Errorf("kafkaserver: broker %d exited during start; see %s", b.id, b.logFile())
		default:
		}
		conn, err := kafkago.DialContext(context.Background(), "tcp", b.Addr())
		if err == nil {
			_, err = conn.Brokers()
			conn.Close()
			if err == nil {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("kafkaserver: broker %d not ready: %w (see %s)", b.id, err, b.logFile())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// WaitReady waits until every broker is in the cluster's metadata, as
// seen by each of them, at most wait.
func (c *Cluster) WaitReady(ctx context.Context, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	var last error
	for _, b := range c.nodes {
		for {
			last = b.ready(ctx, len(c.nodes))
			if last == nil {
				break
			}
			if time.Now().After(deadline) || ctx.Err() != nil {
				return fmt.Errorf("kafkaserver: cluster not ready: %w", last)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	return nil
}

// ready reports whether b is running and sees n brokers.
func (b *Broker) ready(ctx context.Context, n int) error {
	select {
	case <-b.Exited():
		return fmt.Errorf("broker %d is not running; see %s", b.id, b.logFile())
	default:
	}
	d := net.Dialer{Timeout: time.Second}
	conn, err := (&kafkago.Dialer{DialFunc: d.DialContext, Timeout: 2 * time.Second}).DialContext(ctx, "tcp", b.Addr())
	if err != nil {
		return err
	}
	defer conn.Close()
	bs, err := conn.Brokers()
	if err != nil {
		return err
	}
	if len(bs) < n {
		return fmt.Errorf("broker %d sees %d of %d brokers", b.id, len(bs), n)
	}
	return nil
}

// Brokers are the brokers' addresses (the bootstrap list).
func (c *Cluster) Brokers() []string {
	out := make([]string, len(c.nodes))
	for i, b := range c.nodes {
		out[i] = b.Addr()
	}
	return out
}

// Nodes are the cluster's brokers, for a test that kills one.
func (c *Cluster) Nodes() []*Broker { return c.nodes }

// Kill kills the broker with SIGKILL, as a crash would; its supervision
// starts it again.
func (b *Broker) Kill() error { return kill(&b.Supervised, "broker") }

// stop asks the broker to shut down (SIGTERM: a controlled shutdown that
// moves its partitions' leadership away) and waits, then kills it.
func (b *Broker) stop() error { return stop(&b.Supervised, b.pidFile()) }

// Close stops every broker, all at once: one by one, the last ones would
// wait for a controller quorum that is gone.
func (c *Cluster) Close() {
	var wg sync.WaitGroup
	for _, b := range c.nodes {
		wg.Add(1)
		go func() { defer wg.Done(); _ = b.stop() }()
	}
	wg.Wait()
}
