package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/httpapi"
	"agora/internal/adapters/blob"
	"agora/internal/plumbing/config"
	"agora/internal/plumbing/db"
	"agora/live"
	"agora/projections"
	"agora/projections/realtime"
	qchat "agora/query/chat"
	qfeed "agora/query/feed"
	qnotifications "agora/query/notifications"
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
	links, err := newBlobLinks(cfg)
	if err != nil {
		return err
	}
	whileServing(srv, func(ctx context.Context, spawn func(func())) {
		spawn(func() { _ = a.Hub.Run(ctx) })
		if len(brokers) == 0 {
			a.Log.Warn("live events are off: this API node has no broker to read the change stream from; set KAFKA_BROKERS")
			return
		}
		own, p, err := newRealtime(a, d, links, margin)
		if err != nil {
			a.Log.Error("live events are off: the realtime projection did not start", "err", err)
			return
		}
		pc := ProjectorConfig(cfg, brokers, a.Registry, a.Log)
		spawn(func() {
			defer own.Close()
			_ = projections.Run(ctx, pc, p)
		})
		a.Log.Info("live events on", "node", a.Hub.NodeID(), "group", projections.GroupID(pc.TopicPrefix, p.Name()))
	})
	return nil
}

// realtimeConns are the realtime projection's own connections to Postgres.
// It reads one statement at a time, so one would do; on the API's pool its
// reads queued behind the requests, and at 200 private messages a second
// on a busy machine the live events waited there for seconds.
const realtimeConns = 2

// newRealtime is the realtime projection of a's hub, reading over a pool of
// its own (to close once it stops) with the feed's, the chat's and the
// notifications' queries.
func newRealtime(a *httpapi.Application, d *db.DB, links *blob.Links, margin time.Duration) (*pgxpool.Pool, *realtime.Projection, error) {
	pc := d.Pool.Config().Copy()
	pc.MaxConns, pc.MinConns = realtimeConns, 0
	pool, err := pgxpool.NewWithConfig(context.Background(), pc)
	if err != nil {
		return nil, nil, err
	}
	own := &db.DB{Pool: pool}
	var feed *qfeed.Queries
	var chat *qchat.Queries
	var notes *qnotifications.Queries
	var p *realtime.Projection
	err = firstError(
		func() (err error) { feed, err = qfeed.New(own, links); return },
		func() (err error) { chat, err = qchat.New(own, links); return },
		func() (err error) { notes, err = qnotifications.New(own); return },
		func() (err error) {
			p, err = realtime.NewProjection(a.Hub, pool, feed, chat, notes, margin, a.Log.With("part", "realtime"))
			return
		},
	)
	if err != nil {
		pool.Close()
		return nil, nil, err
	}
	return pool, p, nil
}
