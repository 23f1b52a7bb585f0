package relay

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/adapters/kafka"
)

// lockClass is the first half of the advisory lock that keeps a second
// relay of the same slot waiting; the second half is hashtext(slot).
const lockClass = 0x61676f72 // "agor"

// Run relays changes until ctx ends. It waits for the relay lock first.
// Errors of a run (a lost connection, a broker that refuses writes) are
// logged and the run starts over from the last confirmed position after a
// backoff; only the end of ctx returns.
func Run(ctx context.Context, cfg Config) error {
	cfg.defaults()
	if len(cfg.Brokers) == 0 {
		return errors.New("relay: no Kafka brokers")
	}
	backoff := 250 * time.Millisecond
	for {
		started := time.Now()
		err := runOnce(ctx, cfg)
		if ctx.Err() != nil {
			return nil
		}
		if time.Since(started) > time.Minute {
			backoff = 250 * time.Millisecond
		}
		cfg.Log.Warn("relay stopped, restarting from the last confirmed position", "err", err, "after", backoff)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 10*time.Second)
	}
}

// sessionParams make the text output of values the encoder expects.
var sessionParams = map[string]string{
	"TimeZone":         "UTC",
	"DateStyle":        "ISO, MDY",
	"IntervalStyle":    "iso_8601",
	"bytea_output":     "hex",
	"application_name": "agora-relay",
}

func runOnce(ctx context.Context, cfg Config) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	pool, err := NewPool(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer pool.Close()

	// The lock lives as long as this session: a relay that dies releases it.
	lockConn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("relay: %w", err)
	}
	defer lockConn.Release()
	var got bool
	if err := lockConn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1, hashtext($2))", lockClass, cfg.Slot).Scan(&got); err != nil {
		return fmt.Errorf("relay: lock: %w", err)
	}
	if !got {
		cfg.Log.Info("another relay is active; waiting for it to stop")
		if _, err := lockConn.Exec(ctx, "SELECT pg_advisory_lock($1, hashtext($2))", lockClass, cfg.Slot); err != nil {
			return fmt.Errorf("relay: lock: %w", err)
		}
	}
	defer func() {
		// Unlock explicitly: the pool may keep the session open.
		uctx, ucancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer ucancel()
		_, _ = lockConn.Exec(uctx, "SELECT pg_advisory_unlock($1, hashtext($2))", lockClass, cfg.Slot)
	}()
	cfg.Log.Info("relay active", "slot", cfg.Slot)

	if err := ensurePublication(ctx, pool, cfg); err != nil {
		return err
	}

	rcfg, err := pgconn.ParseConfig(cfg.DatabaseURL)
	if err != nil {
		return fmt.Errorf("relay: %w", err)
	}
	rcfg.RuntimeParams["replication"] = "database"
	for k, v := range sessionParams {
		rcfg.RuntimeParams[k] = v
	}
	repl, err := pgconn.ConnectConfig(ctx, rcfg)
	if err != nil {
		return fmt.Errorf("relay: replication connection: %w", err)
	}
	defer repl.Close(context.Background())

	w := kafka.NewWriter(cfg.Brokers)
	defer w.Close()
	prod := newProducer(w, cfg)
	prodErr := make(chan error, 1)
	go func() { prodErr <- prod.run(ctx) }()
	defer func() { cancel(); <-prodErr }()

	r := &streamer{cfg: cfg, pool: pool, repl: repl, prod: prod, rels: map[uint32]*relation{}}
	startLSN, err := r.prepareSlot(ctx)
	if err != nil {
		return err
	}
	errc := make(chan error, 1)
	go func() { errc <- r.stream(ctx, startLSN) }()
	select {
	case err := <-errc:
		return err
	case err := <-prodErr:
		prodErr <- err // for the deferred receive
		// The streamer must be done with the connection before it closes.
		cancel()
		<-errc
		return err
	}
}

// ensurePublication creates the publication over schema public when it is
// missing, and warns about published tables whose deletes and updates will
// lack the before-image (no REPLICA IDENTITY FULL).
func ensurePublication(ctx context.Context, pool *pgxpool.Pool, cfg Config) error {
	var exists bool
	if err := pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_publication WHERE pubname = $1)", cfg.Publication).Scan(&exists); err != nil {
		return fmt.Errorf("relay: %w", err)
	}
	if !exists {
		// FOR TABLES IN SCHEMA (Postgres 15) takes in tables that later
		// migrations create.
		_, err := pool.Exec(ctx, "CREATE PUBLICATION "+pgx.Identifier{cfg.Publication}.Sanitize()+" FOR TABLES IN SCHEMA public")
		if err != nil && !isDuplicate(err) {
			return fmt.Errorf("relay: create publication %s: %w", cfg.Publication, err)
		}
	}
	rows, err := pool.Query(ctx, `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relreplident <> 'f' ORDER BY 1`)
	if err != nil {
		return fmt.Errorf("relay: %w", err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("relay: %w", err)
	}
	var missing []string
	for _, n := range names {
		if !excluded("public." + n) {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		cfg.Log.Warn("tables without REPLICA IDENTITY FULL: their update and delete events carry only the key in before", "tables", missing)
	}
	return nil
}

func isDuplicate(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "42710"
}
