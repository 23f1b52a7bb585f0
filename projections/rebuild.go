package projections

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	kafkago "github.com/segmentio/kafka-go"

	"agora/internal/adapters/kafka"
	"agora/projections/change"
	"agora/relay"
)

// RebuildOptions say where a rebuild reads from.
type RebuildOptions struct {
	// DatabaseURL is the database the relay (or Debezium) captures.
	DatabaseURL string
	// Slot is the replication slot that feeds the topics; the rebuild
	// waits until it has confirmed the snapshot's position, so every change
	// before the snapshot is in Kafka when the split is computed.
	Slot string
}

// ErrGroupActive means the projection's consumers are running; a rebuild
// needs them stopped so it can move the group's offsets.
var ErrGroupActive = errors.New("projections: the projection's consumer group is active: stop the projectors that run it, then rebuild")

// Rebuild re-reads h's tables from a Postgres snapshot into a fresh target
// and moves h's consumer group to exactly where that snapshot ends:
//
//  1. note the end offsets of h's topics;
//  2. export a snapshot with a temporary replication slot, at LSN S: it
//     holds exactly the transactions that commit before S;
//  3. Reset the target, apply every row of the snapshot as op r, Swap;
//  4. wait until the slot that feeds the topics has confirmed S, then, in
//     each partition, find the first change from step 1's offset on whose
//     transaction the snapshot does not see (by its source.txId against
//     the snapshot's xmin, xmax and running xids) — partitions are in
//     commit order and the exported snapshot sees exactly the
//     transactions that commit before S, so everything before that change
//     is in the snapshot and everything from it on is not;
//  5. commit those offsets for the group. The projection's consumers,
//     started again, go on from there.
//
// Step 4 needs nothing of source.sequence, whose first element (the
// previous transaction's commit, as Debezium writes it) cannot tell the
// first transaction after S from the last one before it; so the split is
// exact on a stream from the relay and from Debezium alike, with writes
// going on.
func Rebuild(ctx context.Context, cfg Config, o RebuildOptions, h Rebuilder) (rows int, err error) {
	cfg.defaults()
	topics := Topics(cfg.TopicPrefix, h)
	if err := kafka.EnsureTopics(ctx, cfg.Brokers, cfg.Partitions, topics...); err != nil {
		return 0, err
	}
	start := map[string]map[int]int64{}
	for _, t := range topics {
		if start[t], err = kafka.EndOffsets(ctx, cfg.Brokers, t); err != nil {
			return 0, err
		}
	}
	exp, err := relay.ExportSnapshot(ctx, o.DatabaseURL)
	if err != nil {
		return 0, err
	}
	defer exp.Close() //nolint:errcheck
	pool, err := relay.NewPool(ctx, o.DatabaseURL)
	if err != nil {
		return 0, err
	}
	defer pool.Close()
	if rows, err = fill(ctx, cfg, pool, exp, h); err != nil {
		return rows, err
	}
	if s, ok := h.(Swapper); ok {
		if err := s.Swap(ctx); err != nil {
			return rows, fmt.Errorf("projections: swap %s: %w", h.Name(), err)
		}
	}
	if err := waitForSlot(ctx, pool, o.Slot, exp.LSN); err != nil {
		return rows, err
	}
	var snapshot string
	if err := pgx.BeginTxFunc(ctx, pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SET TRANSACTION SNAPSHOT '"+exp.Name+"'"); err != nil {
			return err
		}
		return tx.QueryRow(ctx, "SELECT pg_current_snapshot()::text").Scan(&snapshot)
	}); err != nil {
		return rows, fmt.Errorf("projections: the snapshot's transactions: %w", err)
	}
	inSnapshot := func(c change.Change) (bool, error) {
		if c.Op == change.Read {
			return true, nil // an earlier snapshot's read
		}
		var visible bool
		err := pool.QueryRow(ctx, inSnapshotSQL, c.Source.TxID, snapshot).Scan(&visible)
		return visible, err
	}
	commit := map[string][]kafkago.OffsetCommit{}
	for _, t := range topics {
		end, err := kafka.EndOffsets(ctx, cfg.Brokers, t)
		if err != nil {
			return rows, err
		}
		for p, hw := range end {
			split, err := findSplit(ctx, cfg.Brokers, t, p, start[t][p], hw, inSnapshot)
			if err != nil {
				return rows, err
			}
			commit[t] = append(commit[t], kafkago.OffsetCommit{Partition: p, Offset: split})
		}
	}
	res, err := kafka.Client(cfg.Brokers).OffsetCommit(ctx, &kafkago.OffsetCommitRequest{
		GroupID: GroupID(cfg.TopicPrefix, h.Name()), GenerationID: -1, Topics: commit,
	})
	if err != nil {
		return rows, fmt.Errorf("projections: commit offsets: %w", err)
	}
	for _, ps := range res.Topics {
		for _, p := range ps {
			if p.Error != nil {
				return rows, fmt.Errorf("%w (%v)", ErrGroupActive, p.Error)
			}
		}
	}
	return rows, nil
}

// fill makes h's fresh target (Reset) and applies every row of the
// snapshot exp to it as op r, in batches as the runner would.
func fill(ctx context.Context, cfg Config, pool *pgxpool.Pool, exp *relay.Exported, h Rebuilder) (rows int, err error) {
	if err := h.Reset(ctx); err != nil {
		return 0, fmt.Errorf("projections: reset %s: %w", h.Name(), err)
	}
	batch := make([]change.Change, 0, cfg.MaxBatch)
	apply := func() error {
		if len(batch) == 0 {
			return nil
		}
		var err error
		if b, ok := h.(BatchHandler); ok {
			err = b.ApplyBatch(ctx, batch)
		} else {
			for _, c := range batch {
				if err = h.Apply(ctx, c); err != nil {
					break
				}
			}
		}
		batch = batch[:0]
		return err
	}
	rows, err = relay.Snapshot(ctx, pool, exp.Name, exp.LSN, relay.Config{TopicPrefix: cfg.TopicPrefix}, h.Tables(), func(m kafkago.Message) error {
		c, err := change.Decode(m.Topic, m.Key, m.Value)
		if err != nil {
			return err
		}
		batch = append(batch, c)
		if len(batch) == cap(batch) {
			return apply()
		}
		return nil
	})
	if err == nil {
		err = apply()
	}
	if err != nil {
		return rows, fmt.Errorf("projections: rebuild %s: %w", h.Name(), err)
	}
	return rows, nil
}

// waitForSlot waits until slot has confirmed lsn. A heartbeat gives the
// relay a transaction past lsn to confirm at once.
func waitForSlot(ctx context.Context, pool *pgxpool.Pool, slot string, lsn pglogrepl.LSN) error {
	var exists bool
	if err := pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_replication_slots WHERE slot_name = $1)", slot).Scan(&exists); err != nil {
		return fmt.Errorf("projections: %w", err)
	}
	if !exists {
		return fmt.Errorf("projections: no replication slot %q feeds the topics", slot)
	}
	if _, err := pool.Exec(ctx, relay.HeartbeatQuery); err != nil {
		return fmt.Errorf("projections: heartbeat: %w", err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var confirmed *string
		if err := pool.QueryRow(ctx, "SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = $1", slot).Scan(&confirmed); err != nil {
			return fmt.Errorf("projections: %w", err)
		}
		if confirmed != nil {
			if c, err := pglogrepl.ParseLSN(*confirmed); err == nil && c >= lsn {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("projections: slot %s has not confirmed %s within 2 minutes: is the relay running?", slot, lsn)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// inSnapshotSQL is whether the transaction $1 (a 32-bit xid, as
// source.txId has it) is visible in the snapshot $2 (pg_snapshot's text).
// The xid is widened to the 64-bit xid nearest the snapshot's xmax, below
// or above it: transactions that begin after the snapshot have xids past
// its xmax (WaitVisible's widening, for a snapshot newer than every xid it
// is asked about, would take them for old ones).
const inSnapshotSQL = `SELECT pg_visible_in_snapshot(GREATEST(top + (((x - top + 2147483648) & 4294967295) - 2147483648), 3)::text::xid8, snap)
	FROM (SELECT $2::pg_snapshot AS snap, pg_snapshot_xmax($2::pg_snapshot)::text::bigint AS top, $1::bigint AS x) s`

// findSplit returns the offset of the first message in [from, hw) of a
// partition whose change is not in the snapshot, or hw.
func findSplit(ctx context.Context, brokers []string, topic string, partition int, from, hw int64, inSnapshot func(change.Change) (bool, error)) (int64, error) {
	if from >= hw {
		return hw, nil
	}
	r := kafkago.NewReader(kafkago.ReaderConfig{Brokers: brokers, Topic: topic, Partition: partition, MinBytes: 1, MaxBytes: 16 << 20, MaxWait: 200 * time.Millisecond})
	defer r.Close()
	if err := r.SetOffset(from); err != nil {
		return 0, err
	}
	for {
		rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		m, err := r.ReadMessage(rctx)
		cancel()
		if err != nil {
			return 0, fmt.Errorf("projections: scan %s/%d: %w", topic, partition, err)
		}
		if c, err := change.Decode(m.Topic, m.Key, m.Value); err == nil {
			in, err := inSnapshot(c)
			if err != nil {
				return 0, fmt.Errorf("projections: scan %s/%d: %w", topic, partition, err)
			}
			if !in {
				return m.Offset, nil
			}
		}
		if m.Offset+1 >= hw {
			return hw, nil
		}
	}
}
