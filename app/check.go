package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"time"

	"agora/analytics"
	"agora/internal/plumbing/config"
	"agora/internal/standins/chserver"
	"agora/projections"
	"agora/projections/insights"
	"agora/projections/notifications"
	"agora/projections/searchindex"
	"agora/search"
)

// ErrDifferent means agora projector check found a target that is not
// what a rebuild from Postgres gives.
var ErrDifferent = errors.New("a projection's target differs from what a rebuild gives")

// Check is agora projector check [NAME]: it compares the target of the
// projection named name, or of every projection that keeps one when name
// is empty, with what a rebuild from a snapshot gives (projections.Check),
// and reports each. The error is ErrDifferent when a report is not Equal.
// The projections must be running (or caught up): the check waits until
// they have applied what the snapshot holds.
func Check(ctx context.Context, cfg config.Config, d *Database, w *Warehouse, handlers []projections.Handler, name string, log *slog.Logger) ([]projections.Report, error) {
	brokers := cfg.Kafka.BrokerList()
	if len(brokers) == 0 {
		return nil, ErrNoBrokers
	}
	checked := map[string]projections.Checked{}
	var names []string
	for _, h := range handlers {
		if c, ok := h.(projections.Checked); ok && (name == "" || h.Name() == name) {
			checked[h.Name()] = c
			names = append(names, h.Name())
		}
	}
	if name != "" && len(names) == 0 {
		if _, err := handlerNamed(handlers, name); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("projection %s cannot be checked (it keeps no target of its own)", name)
	}
	var reports []projections.Report
	for _, n := range names {
		start := time.Now()
		r, err := projections.Check(ctx, ProjectorConfig(cfg, brokers, nil, log), projections.RebuildOptions{DatabaseURL: d.URL, Slot: cfg.Kafka.RelaySlot},
			checked[n], scratchOf(checked[n], w))
		if err != nil {
			return reports, err
		}
		log.Info("projection checked", "projection", n, "equal", r.Equal(), "took", time.Since(start).Round(time.Millisecond))
		reports = append(reports, r)
	}
	for _, r := range reports {
		if !r.Equal() {
			return reports, ErrDifferent
		}
	}
	return reports, nil
}

// scratchOf makes h's scratch target for a check: the search projection
// an embedded store in a temporary folder (its documents are compared,
// whatever engine holds the live ones), the insights projection a fresh
// database beside the warehouse's, the notifications projection a copy of
// its table.
func scratchOf(h projections.Checked, w *Warehouse) projections.Scratch {
	return func(ctx context.Context) (projections.Checked, func(context.Context) error, error) {
		switch p := h.(type) {
		case *searchindex.Projection:
			dir, err := os.MkdirTemp("", "agora-check-search-")
			if err != nil {
				return nil, nil, err
			}
			store, err := search.OpenEmbedded(dir)
			if err != nil {
				_ = os.RemoveAll(dir)
				return nil, nil, err
			}
			return p.Into(store), func(context.Context) error {
				return errors.Join(store.Close(), os.RemoveAll(dir))
			}, nil
		case *insights.Projection:
			return scratchWarehouse(ctx, p, w)
		case *notifications.Projection:
			n, drop, err := p.Scratch(ctx)
			return n, drop, err
		}
		return nil, nil, fmt.Errorf("no scratch target for projection %s", h.Name())
	}
}

// scratchWarehouse is p over a fresh, migrated database on w's server,
// named after w's own, which drop removes.
func scratchWarehouse(ctx context.Context, p *insights.Projection, w *Warehouse) (projections.Checked, func(context.Context) error, error) {
	u, err := url.Parse(w.URL)
	if err != nil {
		return nil, nil, fmt.Errorf("warehouse URL: %w", err)
	}
	name := fmt.Sprintf("%s_check_%d", strings.Trim(u.Path, "/"), time.Now().UnixNano())
	if err := w.Conn.Exec(ctx, "CREATE DATABASE "+chserver.QuoteIdentifier(name)); err != nil {
		return nil, nil, fmt.Errorf("scratch warehouse: %w", err)
	}
	drop := func(ctx context.Context) error {
		return w.Conn.Exec(ctx, "DROP DATABASE IF EXISTS "+chserver.QuoteIdentifier(name))
	}
	u.Path = "/" + name
	conn, err := analytics.Open(ctx, u.String())
	if err == nil {
		if _, err = analytics.Migrate(ctx, conn); err != nil {
			_ = conn.Close()
		}
	}
	if err != nil {
		return nil, nil, errors.Join(fmt.Errorf("scratch warehouse: %w", err), drop(ctx))
	}
	return p.Into(conn), func(ctx context.Context) error {
		return errors.Join(conn.Close(), drop(ctx))
	}, nil
}
