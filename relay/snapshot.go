package relay

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	kafkago "github.com/segmentio/kafka-go"
)

// NewPool opens a small pool whose sessions print values the way the
// encoder reads them (UTC, ISO dates, ISO 8601 intervals, hex bytea).
func NewPool(ctx context.Context, url string) (*pgxpool.Pool, error) {
	pcfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("relay: %w", err)
	}
	for k, v := range sessionParams {
		pcfg.ConnConfig.RuntimeParams[k] = v
	}
	pcfg.MaxConns = 4
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return nil, fmt.Errorf("relay: %w", err)
	}
	return pool, nil
}

// Exported is a snapshot exported by a temporary replication slot: reading
// in it sees exactly the transactions that commit before LSN.
type Exported struct {
	Name string
	LSN  pglogrepl.LSN
	conn *pgconn.PgConn
}

// Close drops the temporary slot (and so the snapshot).
func (e *Exported) Close() error { return e.conn.Close(context.Background()) }

// ExportSnapshot creates a temporary slot with an exported snapshot, for a
// rebuild: the snapshot and its LSN split the change stream exactly. The
// snapshot stays valid until Close, provided nothing else runs on it.
func ExportSnapshot(ctx context.Context, url string) (*Exported, error) {
	rcfg, err := pgconn.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("relay: %w", err)
	}
	rcfg.RuntimeParams["replication"] = "database"
	conn, err := pgconn.ConnectConfig(ctx, rcfg)
	if err != nil {
		return nil, fmt.Errorf("relay: %w", err)
	}
	name := fmt.Sprintf("agora_rebuild_%d", time.Now().UnixNano())
	res, err := pglogrepl.CreateReplicationSlot(ctx, conn, name, "pgoutput",
		pglogrepl.CreateReplicationSlotOptions{Temporary: true, Mode: pglogrepl.LogicalReplication, SnapshotAction: "EXPORT_SNAPSHOT"})
	if err != nil {
		conn.Close(ctx)
		return nil, fmt.Errorf("relay: export snapshot: %w", err)
	}
	lsn, err := pglogrepl.ParseLSN(res.ConsistentPoint)
	if err != nil {
		conn.Close(ctx)
		return nil, err
	}
	return &Exported{Name: res.SnapshotName, LSN: lsn, conn: conn}, nil
}

// Snapshot reads the published tables (or only tables, "schema.table",
// when not empty) in the exported snapshot and calls emit with one op r
// event per row, as Debezium's initial snapshot does: source.snapshot is
// "first" for the first row, "last" for the last, "true" between, and
// source.lsn is the snapshot's LSN. It returns the number of rows.
func Snapshot(ctx context.Context, pool *pgxpool.Pool, snapshotName string, point pglogrepl.LSN, cfg Config, tables []string, emit func(kafkago.Message) error) (int, error) {
	cfg.defaults()
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return 0, fmt.Errorf("relay: snapshot: %w", err)
	}
	defer conn.Release()
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return 0, fmt.Errorf("relay: snapshot: %w", err)
	}
	defer tx.Rollback(context.Background()) //nolint:errcheck
	if _, err := tx.Exec(ctx, "SET TRANSACTION SNAPSHOT '"+snapshotName+"'"); err != nil {
		return 0, fmt.Errorf("relay: snapshot: %w", err)
	}
	if len(tables) == 0 {
		rows, err := tx.Query(ctx, "SELECT schemaname || '.' || tablename FROM pg_publication_tables WHERE pubname = $1 ORDER BY 1", cfg.Publication)
		if err != nil {
			return 0, fmt.Errorf("relay: snapshot: %w", err)
		}
		if tables, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			return 0, fmt.Errorf("relay: snapshot: %w", err)
		}
	}
	var xmin int64
	if err := tx.QueryRow(ctx, "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint").Scan(&xmin); err != nil {
		return 0, fmt.Errorf("relay: snapshot: %w", err)
	}
	started := time.Now().UnixMicro()

	// Events are written one behind, so that a table's last row and the
	// snapshot's last are known when they are marked.
	type pending struct {
		rel          *relation
		vals         []value
		firstInTable bool
	}
	var prev *pending
	n := 0
	flush := func(lastInTable, last bool) error {
		if prev == nil {
			return nil
		}
		src := sourceInfo{name: cfg.TopicPrefix, db: pool.Config().ConnConfig.Database, schema: prev.rel.schema, table: prev.rel.table,
			tsUs: started, txID: xmin, lsn: point, snapshot: snapshotMark(n == 0, last, prev.firstInTable, lastInTable)}
		key, val, err := encodeEvent(prev.rel, "r", nil, prev.vals, src)
		if err != nil {
			return err
		}
		n++
		return emit(kafkago.Message{Topic: Topic(cfg.TopicPrefix, prev.rel.schema, prev.rel.table), Key: key, Value: val})
	}
	for _, qualified := range tables {
		if excluded(qualified) {
			continue
		}
		var relid uint32
		if err := tx.QueryRow(ctx, "SELECT $1::regclass::oid", qualified).Scan(&relid); err != nil {
			return n, fmt.Errorf("relay: snapshot %s: %w", qualified, err)
		}
		var schema, table string
		if err := tx.QueryRow(ctx, "SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = $1", relid).Scan(&schema, &table); err != nil {
			return n, fmt.Errorf("relay: snapshot %s: %w", qualified, err)
		}
		pk, err := primaryKey(ctx, tx, relid)
		if err != nil {
			return n, err
		}
		rr := conn.Conn().PgConn().ExecParams(ctx, "SELECT * FROM "+pgx.Identifier{schema, table}.Sanitize(), nil, nil, nil, nil)
		rel := &relation{schema: schema, table: table}
		for i, fd := range rr.FieldDescriptions() {
			rel.cols = append(rel.cols, column{name: fd.Name, oid: fd.DataTypeOID, typmod: fd.TypeModifier})
			for _, k := range pk {
				if k == fd.Name {
					rel.pk = append(rel.pk, i)
				}
			}
		}
		first := true
		for rr.NextRow() {
			if err := flush(prev != nil && prev.rel != rel, false); err != nil {
				rr.Close()
				return n, err
			}
			raw := rr.Values()
			vals := make([]value, len(raw))
			for i, v := range raw {
				if v == nil {
					vals[i] = value{null: true}
				} else {
					vals[i] = value{text: bytes.Clone(v)}
				}
			}
			prev = &pending{rel: rel, vals: vals, firstInTable: first}
			first = false
		}
		if _, err := rr.Close(); err != nil {
			return n, fmt.Errorf("relay: snapshot %s: %w", qualified, err)
		}
	}
	if err := flush(true, true); err != nil {
		return n, err
	}
	return n, tx.Commit(ctx)
}

// snapshotMark is source.snapshot of a snapshot read as Debezium 3 writes
// it: "first" and "last" for the snapshot's first and last record,
// "first_in_data_collection" and "last_in_data_collection" for a table's
// (the last winning for a table of one row), "true" between.
func snapshotMark(first, last, firstInTable, lastInTable bool) string {
	switch {
	case last:
		return "last"
	case first:
		return "first"
	case lastInTable:
		return "last_in_data_collection"
	case firstInTable:
		return "first_in_data_collection"
	}
	return "true"
}
