package app

import (
	"log/slog"

	"agora/internal/adapters/webpush"
	"agora/internal/plumbing/config"
	"agora/internal/plumbing/vapid"
	"agora/projections"
	"agora/projections/delivery"
	"agora/projections/insights"
	"agora/projections/notifications"
	"agora/projections/searchindex"
	qinsights "agora/query/insights"
	"agora/search"
)

// Projections are the projections agora projector and agora dev run: the
// search projection fills store, the analytics projection (insights) the
// warehouse w, the notifications projection the notifications table, and
// the delivery projection e-mails and pushes the notifications (with its
// digests' scheduler). Each projection package adds its constructor here.
// The realtime projection is not among them: every API node runs its own
// (realtime.go).
func Projections(cfg config.Config, d *Database, store search.Store, w *Warehouse, log *slog.Logger) ([]projections.Handler, error) {
	// Posts get vectors when an embedder is configured (NewEmbedder).
	embedder, err := NewEmbedder(cfg)
	if err != nil {
		return nil, err
	}
	searchProjection, err := searchindex.New(store, d.Pool, log.With("part", "search"), searchindex.WithEmbedder(embedder))
	if err != nil {
		return nil, err
	}
	ins, err := insights.New(w.Conn, d.Pool, log.With("part", "insights"))
	if err != nil {
		return nil, err
	}
	notes, err := notifications.New(d.Pool, log.With("part", "notifications"))
	if err != nil {
		return nil, err
	}
	deliver, err := newDelivery(cfg, d, w, log.With("part", "delivery"))
	if err != nil {
		return nil, err
	}
	return []projections.Handler{searchProjection, ins, notes, deliver}, nil
}

// newDelivery builds the delivery projection: mail as the API sends it,
// push when a VAPID key pair is configured, the insights digests' figures
// from the warehouse.
func newDelivery(cfg config.Config, d *Database, w *Warehouse, log *slog.Logger) (*delivery.Projection, error) {
	sender, _ := mailSender(cfg, d.DB)
	var push *webpush.Sender
	if cfg.Push.Enabled() {
		var err error
		push, err = webpush.NewSender(vapid.Keys{Public: cfg.Push.PublicKey, Private: cfg.Push.PrivateKey}, cfg.Push.Subject, outboundGuard(cfg, log))
		if err != nil {
			return nil, err
		}
	}
	reports, err := qinsights.New(d.DB, insightsStore(w.Conn))
	if err != nil {
		return nil, err
	}
	return delivery.New(d.Pool, delivery.Options{Mail: sender, Push: push, BaseURL: cfg.BaseURL(), Insights: reports, Limits: cfg.MailLimits, Log: log})
}
