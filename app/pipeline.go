package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"agora/httpapi"
	"agora/internal/adapters/kafka"
	"agora/internal/plumbing/config"
	"agora/projections"
	"agora/relay"
)

// PipelineOptions choose the parts of the change pipeline a process runs.
type PipelineOptions struct {
	// Relay runs the CDC relay.
	Relay bool
	// Engines are the real engines the pipeline runs on (agora dev
	// --engines real): Debezium captures instead of the relay (Relay must
	// be false) and the projections read their brokers, not
	// KAFKA_BROKERS's nor an embedded one.
	Engines *RealEngines
	// Projections are run by the projector, each in its own consumer
	// group; none means no projector.
	Projections []projections.Handler
	// Registry receives the projector's metrics; nil means none.
	Registry prometheus.Registerer
}

// Pipeline is the change pipeline of one process: the broker (embedded
// when KAFKA_BROKERS is unset), and the relay and projector it was asked
// to run.
type Pipeline struct {
	brokers  []string
	engines  []httpapi.Engine
	embedded *kafka.Embedded
	cancel   context.CancelFunc
	wg       sync.WaitGroup
}

// Brokers are the addresses of the broker the pipeline uses.
func (p *Pipeline) Brokers() []string { return append([]string(nil), p.brokers...) }

// Engines name what captures the changes and the broker they go through,
// for /readyz.
func (p *Pipeline) Engines() []httpapi.Engine { return append([]httpapi.Engine(nil), p.engines...) }

// StartPipeline starts the pipeline's parts in the background over the
// database at databaseURL. With KAFKA_BROKERS unset it starts the embedded
// broker, its state under the data folder's kafka/. It returns at once: the
// relay's first snapshot and the consumers' group joins happen behind it.
func StartPipeline(ctx context.Context, cfg config.Config, databaseURL string, log *slog.Logger, o PipelineOptions) (*Pipeline, error) {
	p := &Pipeline{brokers: cfg.Kafka.BrokerList()}
	if o.Relay {
		p.engines = append(p.engines, httpapi.Engine{Role: "capture", Name: "relay"})
	}
	switch {
	case o.Engines != nil:
		if o.Relay {
			// Both would put every change on the topics twice.
			return nil, errors.New("pipeline: the relay and Debezium both capture; run one")
		}
		p.brokers = o.Engines.Kafka.Brokers()
		p.engines = append(p.engines, o.Engines.Engines()...)
	case len(p.brokers) == 0:
		e, err := kafka.StartEmbedded(filepath.Join(cfg.DataDir, "kafka"), kafka.EmbeddedOptions{Partitions: cfg.Kafka.Partitions, Log: log})
		if err != nil {
			return nil, err
		}
		p.embedded, p.brokers = e, e.Brokers()
		p.engines = append(p.engines, httpapi.Engine{Role: "broker", Name: "embedded broker"})
		log.Info("embedded Kafka-protocol broker started", "addr", p.brokers[0])
	default:
		// KAFKA_BROKERS' cluster, whose version this process does not know.
		p.engines = append(p.engines, httpapi.Engine{Role: "broker", Name: "Kafka"})
	}
	ctx, p.cancel = context.WithCancel(ctx)
	if o.Relay {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			rc := relay.Config{
				DatabaseURL: databaseURL, Brokers: p.brokers, Slot: cfg.Kafka.RelaySlot,
				TopicPrefix: cfg.Kafka.TopicPrefix, Partitions: cfg.Kafka.Partitions, Log: log.With("part", "relay"),
			}
			if o.Registry != nil {
				rc.Metrics = relay.NewMetrics(o.Registry)
			}
			_ = relay.Run(ctx, rc)
		}()
	}
	if len(o.Projections) > 0 {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			_ = projections.Run(ctx, ProjectorConfig(cfg, p.brokers, o.Registry, log), o.Projections...)
		}()
	}
	return p, nil
}

// ProjectorConfig is the runner configuration of cfg. The runner's
// metrics on a registry are shared with every other runner of the process
// (agora dev's projector and each API node's realtime projection register
// the same collectors, in whichever order they start).
func ProjectorConfig(cfg config.Config, brokers []string, reg prometheus.Registerer, log *slog.Logger) projections.Config {
	m := projections.NewMetrics(nil)
	if r, ok := reg.(*prometheus.Registry); ok {
		m = sharedMetrics(r)
	} else if reg != nil {
		m = projections.NewMetrics(reg)
	}
	return projections.Config{
		Brokers: brokers, TopicPrefix: cfg.Kafka.TopicPrefix, Partitions: cfg.Kafka.Partitions,
		MaxBackoff: cfg.Kafka.RetryMaxBackoff, StallAfter: cfg.Kafka.StallAfter,
		Metrics: m, Log: log.With("part", "projector"),
	}
}

// Close stops the relay and the projector, then the embedded broker.
func (p *Pipeline) Close() {
	p.cancel()
	p.wg.Wait()
	if p.embedded != nil {
		p.embedded.Close()
	}
}

// ErrNoBrokers means a standalone relay or projector has no Kafka to use.
var ErrNoBrokers = errors.New("KAFKA_BROKERS is required: agora relay and agora projector run beside a Kafka cluster (agora dev runs an embedded broker in process)")

// RunRelay is agora relay: the relay alone, against DATABASE_URL (or the
// private cluster) and KAFKA_BROKERS, with /metrics on AGORA_METRICS_ADDR.
func RunRelay(ctx context.Context, cfg config.Config, d *Database, log *slog.Logger) error {
	brokers := cfg.Kafka.BrokerList()
	if len(brokers) == 0 {
		return ErrNoBrokers
	}
	reg := NewRegistry()
	errc := make(chan error, 1)
	go func() { errc <- ServeMetrics(ctx, cfg.Kafka.MetricsAddr, reg, log) }()
	err := relay.Run(ctx, relay.Config{
		DatabaseURL: d.URL, Brokers: brokers, Slot: cfg.Kafka.RelaySlot,
		TopicPrefix: cfg.Kafka.TopicPrefix, Partitions: cfg.Kafka.Partitions, Log: log,
		Metrics: relay.NewMetrics(reg),
	})
	if merr := <-errc; err == nil {
		err = merr
	}
	return err
}

// RunProjector is agora projector: the projections alone, consuming from
// KAFKA_BROKERS, with /metrics on AGORA_METRICS_ADDR.
func RunProjector(ctx context.Context, cfg config.Config, handlers []projections.Handler, log *slog.Logger) error {
	brokers := cfg.Kafka.BrokerList()
	if len(brokers) == 0 {
		return ErrNoBrokers
	}
	if len(handlers) == 0 {
		log.Warn("no projections are registered; the projector has nothing to do")
	}
	reg := NewRegistry()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- ServeMetrics(ctx, cfg.Kafka.MetricsAddr, reg, log) }()
	runc := make(chan error, 1)
	go func() { runc <- projections.Run(ctx, ProjectorConfig(cfg, brokers, reg, log), handlers...) }()
	select {
	case err := <-errc:
		cancel()
		<-runc
		return err
	case err := <-runc:
		cancel()
		<-errc
		return err
	}
}

// Rebuild is agora projector rebuild NAME: it rebuilds the projection
// named name from a snapshot (see projections.Rebuild).
func Rebuild(ctx context.Context, cfg config.Config, d *Database, handlers []projections.Handler, name string, log *slog.Logger) error {
	brokers := cfg.Kafka.BrokerList()
	if len(brokers) == 0 {
		return ErrNoBrokers
	}
	h, err := handlerNamed(handlers, name)
	if err != nil {
		return err
	}
	rb, ok := h.(projections.Rebuilder)
	if !ok {
		return fmt.Errorf("projection %s cannot be rebuilt (it keeps no target of its own)", name)
	}
	start := time.Now()
	rows, err := projections.Rebuild(ctx, ProjectorConfig(cfg, brokers, nil, log), projections.RebuildOptions{DatabaseURL: d.URL, Slot: cfg.Kafka.RelaySlot}, rb)
	if err != nil {
		return err
	}
	log.Info("projection rebuilt", "projection", name, "rows", rows, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// Replay is agora projector replay NAME: it applies the dead letters of
// the projection named name again, after a fix (see projections.Replay),
// and reports how many applied and how many failed again (those are back
// in the dead-letter topic, for the next replay).
func Replay(ctx context.Context, cfg config.Config, handlers []projections.Handler, name string, log *slog.Logger) (applied, failed int, err error) {
	brokers := cfg.Kafka.BrokerList()
	if len(brokers) == 0 {
		return 0, 0, ErrNoBrokers
	}
	h, err := handlerNamed(handlers, name)
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	applied, failed, err = projections.Replay(ctx, ProjectorConfig(cfg, brokers, nil, log), h)
	if err != nil {
		return applied, failed, err
	}
	log.Info("dead letters replayed", "projection", name, "applied", applied, "failed", failed, "took", time.Since(start).Round(time.Millisecond))
	return applied, failed, nil
}

// handlerNamed is the projection of handlers named name.
func handlerNamed(handlers []projections.Handler, name string) (projections.Handler, error) {
	var names []string
	for _, h := range handlers {
		if h.Name() == name {
			return h, nil
		}
		names = append(names, h.Name())
	}
	return nil, fmt.Errorf("no projection named %q (have %v)", name, names)
}
