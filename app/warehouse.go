package app

import (
	"context"
	"log/slog"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"agora/analytics"
	"agora/internal/plumbing/config"
	"agora/internal/standins/chserver"
	qinsights "agora/query/insights"
)

// WarehouseDatabase is the database of the insights warehouse on the local
// ClickHouse server.
const WarehouseDatabase = "agora"

// Warehouse is the insights warehouse: an open, migrated ClickHouse
// database and, in the embedded runtime, the local server it lives on.
type Warehouse struct {
	Conn   driver.Conn
	URL    string
	server *chserver.Server
}

// Close closes the connection and stops the local server, if any.
func (w *Warehouse) Close() error {
	_ = w.Conn.Close()
	if w.server != nil {
		return w.server.Stop()
	}
	return nil
}

// OpenWarehouse connects to CLICKHOUSE_URL, or else starts the local
// ClickHouse server under the data folder (clickhouse/) and connects to
// its agora database; either way it applies the warehouse migrations.
func OpenWarehouse(ctx context.Context, cfg config.Config, log *slog.Logger) (*Warehouse, error) {
	url := cfg.Warehouse.ClickHouseURL
	var srv *chserver.Server
	if url == "" {
		var err error
		srv, err = chserver.Start(ctx, cfg.WarehouseDir(), log)
		if err != nil {
			return nil, err
		}
		if err := srv.CreateDatabase(ctx, WarehouseDatabase); err != nil {
			_ = srv.Stop()
			return nil, err
		}
		url = srv.URL(WarehouseDatabase)
	}
	conn, err := analytics.Open(ctx, url)
	if err == nil {
		err = MigrateWarehouse(ctx, conn, log)
		if err != nil {
			_ = conn.Close()
		}
	}
	if err != nil {
		if srv != nil {
			_ = srv.Stop()
		}
		return nil, err
	}
	return &Warehouse{Conn: conn, URL: url, server: srv}, nil
}

// MigrateWarehouse applies pending warehouse migrations and logs what it
// applied.
func MigrateWarehouse(ctx context.Context, conn driver.Conn, log *slog.Logger) error {
	applied, err := analytics.Migrate(ctx, conn)
	if err != nil {
		return err
	}
	if len(applied) > 0 {
		log.Info("warehouse migrations applied", "versions", applied)
	}
	return nil
}

// ConnectWarehouse connects to CLICKHOUSE_URL without migrating it (agora
// api: the deployment's migrate step, or agora dev, migrates); nil when it
// is unset, and the insights reports then answer that no warehouse is
// configured.
func ConnectWarehouse(ctx context.Context, cfg config.Config) (driver.Conn, error) {
	if cfg.Warehouse.ClickHouseURL == "" {
		return nil, nil
	}
	return analytics.Open(ctx, cfg.Warehouse.ClickHouseURL)
}

// ProjectorWarehouse is the warehouse agora projector writes to:
// CLICKHOUSE_URL as it is (a deployment's migrate step migrates it, and
// several projectors starting at once must not race to), else the local
// server under the data folder, migrated, as agora dev has it.
func ProjectorWarehouse(ctx context.Context, cfg config.Config, log *slog.Logger) (*Warehouse, error) {
	if cfg.Warehouse.ClickHouseURL == "" {
		return OpenWarehouse(ctx, cfg, log)
	}
	conn, err := ConnectWarehouse(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return &Warehouse{Conn: conn, URL: cfg.Warehouse.ClickHouseURL}, nil
}

// insightsStore is the store the insights reports read: ClickHouse over
// conn, or none (the reports then answer that no warehouse is configured).
// This is the one place the adapter is chosen.
func insightsStore(conn driver.Conn) qinsights.Store {
	if conn == nil {
		return nil
	}
	return qinsights.NewClickHouse(conn)
}
