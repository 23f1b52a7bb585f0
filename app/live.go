package app

import (
	"context"
	"log/slog"

	"github.com/gofiber/fiber/v3"

	"agora/httpapi"
	"agora/internal/config"
	"agora/internal/db"
	"agora/live"
	"agora/projections"
	"agora/projections/realtime"
)

func newHub(cfg config.Config, d *db.DB, log *slog.Logger, o apiOptions) *live.Hub {
	h := o.hub
	if h.AwayAfter == 0 {
		h.AwayAfter = cfg.PresenceAwayAfter
	}
	if h.Log == nil {
		h.Log = log.With("part", "hub")
	}
	return live.NewHub(d.Pool, h)
}

// runLiveEvents starts, once srv listens, the hub's presence and session
// loop and this node's realtime projection (its own consumer group, so every
// node sees every change), and stops both when srv shuts down. An API that
// is never served starts nothing.
func runLiveEvents(srv *fiber.App, a *httpapi.Application, cfg config.Config, d *db.DB, o apiOptions) error {
	margin := realtime.DefaultReplayMargin
	if o.marginSet {
		margin = o.replayMargin
	}
	brokers := o.brokers
	if len(brokers) == 0 {
		brokers = cfg.Kafka.BrokerList()
	}
	p, err := realtime.NewProjection(a.Hub, d.Pool, a.Queries.Feed, a.Queries.Chat, a.Queries.Notifications, margin, a.Log.With("part", "realtime"))
	if err != nil {
		return err
	}
	whileServing(srv, func(ctx context.Context, spawn func(func())) {
		spawn(func() { _ = a.Hub.Run(ctx) })
		if len(brokers) == 0 {
			a.Log.Warn("live events are off: this API node has no broker to read the change stream from; set KAFKA_BROKERS")
			return
		}
		pc := ProjectorConfig(cfg, brokers, nil, a.Log)
		pc.Metrics = sharedMetrics(a.Registry)
		spawn(func() { _ = projections.Run(ctx, pc, p) })
		a.Log.Info("live events on", "node", a.Hub.NodeID(), "group", projections.GroupID(pc.TopicPrefix, p.Name()))
	})
	return nil
}
