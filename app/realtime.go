package app

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/prometheus/client_golang/prometheus"

	"agora/internal/config"
	"agora/internal/db"
	"agora/projections"
	"agora/projections/realtime"
)

// liveOptions are the API options of live events.
type liveOptions struct {
	brokers      []string
	hub          realtime.HubOptions
	replayMargin time.Duration
	marginSet    bool
}

// WithPipeline makes the API's realtime projection consume from p's broker:
// agora dev, whose broker is embedded and has no KAFKA_BROKERS.
func WithPipeline(p *Pipeline) APIOption { return WithBrokers(p.Brokers()) }

// WithBrokers makes the API's realtime projection consume from brokers
// rather than KAFKA_BROKERS.
func WithBrokers(brokers []string) APIOption {
	return func(o *apiOptions) { o.live.brokers = append([]string(nil), brokers...) }
}

// WithRealtime sets the hub's options (node id, intervals; tests shorten
// them) and how long before the node's start a change may have been
// committed and still be delivered.
func WithRealtime(h realtime.HubOptions, replayMargin time.Duration) APIOption {
	return func(o *apiOptions) { o.live.hub, o.live.replayMargin, o.live.marginSet = h, replayMargin, true }
}

func liveOpts(opts []APIOption) liveOptions {
	var o apiOptions
	for _, f := range opts {
		f(&o)
	}
	return o.live
}

func newHub(d *db.DB, log *slog.Logger, opts []APIOption) *realtime.Hub {
	o := liveOpts(opts).hub
	if o.Log == nil {
		o.Log = log.With("part", "hub")
	}
	return realtime.NewHub(d.Pool, o)
}

// runLiveEvents starts, once app listens, the hub's presence and session
// loop and this node's realtime projection (its own consumer group, so every
// node sees every change), and stops both when app shuts down. An API that
// is never served starts nothing.
func runLiveEvents(app *fiber.App, hub *realtime.Hub, cfg config.Config, d *db.DB, reg *prometheus.Registry, log *slog.Logger, opts []APIOption) {
	o := liveOpts(opts)
	margin := realtime.DefaultReplayMargin
	if o.marginSet {
		margin = o.replayMargin
	}
	brokers := o.brokers
	if len(brokers) == 0 {
		brokers = cfg.Kafka.BrokerList()
	}
	var (
		mu      sync.Mutex
		cancel  context.CancelFunc
		stopped bool
		wg      sync.WaitGroup
	)
	app.Hooks().OnListen(func(fiber.ListenData) error {
		mu.Lock()
		defer mu.Unlock()
		if stopped || cancel != nil {
			return nil
		}
		var ctx context.Context
		ctx, cancel = context.WithCancel(context.Background())
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = hub.Run(ctx)
		}()
		if len(brokers) == 0 {
			log.Warn("live events are off: this API node has no broker to read the change stream from; set KAFKA_BROKERS")
			return nil
		}
		pc := ProjectorConfig(cfg, brokers, nil, log)
		pc.Metrics = sharedMetrics(reg)
		p := realtime.NewProjection(hub, d.Pool, margin, log.With("part", "realtime"))
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = projections.Run(ctx, pc, p)
		}()
		log.Info("live events on", "node", hub.NodeID(), "group", projections.GroupID(pc.TopicPrefix, p.Name()))
		return nil
	})
	app.Hooks().OnPreShutdown(func() error {
		mu.Lock()
		stopped = true
		c := cancel
		mu.Unlock()
		if c != nil {
			c()
			wg.Wait()
		}
		return nil
	})
}

// sharedMetrics are the runner's metrics registered with reg, reusing the
// ones already there: in agora dev the API and the projector share reg.
func sharedMetrics(reg *prometheus.Registry) *projections.Metrics {
	m := projections.NewMetrics(nil)
	if reg == nil {
		return m
	}
	m.Lag = register(reg, m.Lag)
	m.Apply = register(reg, m.Apply)
	m.Delay = register(reg, m.Delay)
	m.Changes = register(reg, m.Changes)
	m.Retries = register(reg, m.Retries)
	m.DeadLetters = register(reg, m.DeadLetters)
	return m
}

func register[C prometheus.Collector](reg *prometheus.Registry, c C) C {
	if err := reg.Register(c); err != nil {
		var are prometheus.AlreadyRegisteredError
		if errors.As(err, &are) {
			if existing, ok := are.ExistingCollector.(C); ok {
				return existing
			}
		}
	}
	return c
}
