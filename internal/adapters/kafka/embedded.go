package kafka

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
)

// Embedded is the in-process Kafka-protocol broker of the embedded runtime:
// one kfake broker on a loopback port, with its log segments, topics and
// committed consumer-group offsets persisted under a folder of the data
// directory, so a restart (even after kill -9) finds the stream where it
// was. kfake appends every produced batch and every offset commit to its
// files before it answers, so what a client saw acknowledged is in the
// page cache and survives the process being killed; only a machine crash
// could lose it (SyncWrites would fsync each batch, at a large cost).
type Embedded struct {
	cluster *kfake.Cluster
	addrs   []string
	stop    context.CancelFunc
	reaped  chan struct{}
}

// EmbeddedOptions tune the embedded broker.
type EmbeddedOptions struct {
	// Port is the loopback port to listen on; 0 picks a free one.
	Port int
	// Partitions is the partition count of topics created without one.
	Partitions int
	// Log receives the broker's warnings and errors; nil discards them.
	Log *slog.Logger
}

// StartEmbedded starts the broker with its state in dir (created if
// needed), reloading what an earlier run left there.
func StartEmbedded(dir string, o EmbeddedOptions) (*Embedded, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("kafka: %w", err)
	}
	if o.Partitions < 1 {
		o.Partitions = DefaultPartitions
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := trimStateLogs(dir, log); err != nil {
		return nil, err
	}
	opts := []kfake.Opt{
		kfake.NumBrokers(1),
		kfake.Ports(o.Port),
		kfake.DataDir(dir),
		kfake.ClusterID("agora-embedded"),
		kfake.DefaultNumPartitions(o.Partitions),
		kfake.AllowAutoTopicCreation(),
		// A consumer killed with SIGKILL holds its partitions until its
		// session times out; a short minimum lets projectors use a short
		// session, so a restarted one takes over quickly.
		kfake.GroupMinSessionTimeout(time.Second),
	}
	if o.Log != nil {
		opts = append(opts, kfake.WithLogger(slogLogger{o.Log}))
	}
	c, err := kfake.NewCluster(opts...)
	if err != nil {
		return nil, fmt.Errorf("kafka: start embedded broker: %w", err)
	}
	e := &Embedded{cluster: c, addrs: c.ListenAddrs(), reaped: make(chan struct{})}
	// kfake can leave a killed consumer in its group for ever (see
	// sessionReaper): enforce the session timeout beside it.
	reaper := newSessionReaper(log)
	reaper.install(c)
	var ctx context.Context
	ctx, e.stop = context.WithCancel(context.Background())
	go func() {
		defer close(e.reaped)
		reaper.run(ctx, e.addrs)
	}()
	return e, nil
}

// Brokers are the addresses to give kafka-go clients.
func (e *Embedded) Brokers() []string { return append([]string(nil), e.addrs...) }

// Close stops the broker and writes its state to disk.
func (e *Embedded) Close() {
	e.stop()
	<-e.reaped
	e.cluster.Close()
}

type slogLogger struct{ log *slog.Logger }

func (l slogLogger) Logf(level kfake.LogLevel, format string, args ...any) {
	switch level {
	case kfake.LogLevelError:
		l.log.Error("kafka broker: " + fmt.Sprintf(format, args...))
	case kfake.LogLevelWarn:
		l.log.Warn("kafka broker: " + fmt.Sprintf(format, args...))
	}
}
