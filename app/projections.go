package app

import (
	"log/slog"

	"agora/internal/config"
	"agora/projections"
	"agora/projections/insights"
	"agora/projections/notifications"
	"agora/projections/searchindex"
	"agora/search"
)

// Projections are the projections agora projector and agora dev run: the
// search projection fills store, the analytics projection (insights) the
// warehouse w, the notifications projection the notifications table. Each projection package adds its constructor here. The
// realtime projection is not among them: every API node runs its own
// (realtime.go).
func Projections(cfg config.Config, d *Database, store search.Store, w *Warehouse, log *slog.Logger) ([]projections.Handler, error) {
	searchProjection, err := searchindex.New(store, d.Pool, log.With("part", "search"))
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
	return []projections.Handler{searchProjection, ins, notes}, nil
}
