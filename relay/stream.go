package relay

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/jackc/pgx/v5/pgxpool"
	kafkago "github.com/segmentio/kafka-go"
)

// relation is a cached pgoutput Relation message with the table's primary
// key, which REPLICA IDENTITY FULL hides (every column is flagged as key).
type relation struct {
	schema, table string
	cols          []column
	pk            []int // indexes into cols
	skip          bool
}

type column struct {
	name   string
	oid    uint32
	typmod int32
}

type streamer struct {
	cfg  Config
	pool *pgxpool.Pool
	repl *pgconn.PgConn
	prod *producer
	rels map[uint32]*relation
	// lastCommit is the end of the last transaction's commit record, the
	// first element of source.sequence as Debezium writes it: 0 (null)
	// until the first commit after a snapshot.
	lastCommit pglogrepl.LSN
}

// prepareSlot makes sure the slot exists and its snapshot was delivered,
// and returns where streaming starts (0: the slot's confirmed position).
func (s *streamer) prepareSlot(ctx context.Context) (pglogrepl.LSN, error) {
	var slotExists bool
	if err := s.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_replication_slots WHERE slot_name = $1)", s.cfg.Slot).Scan(&slotExists); err != nil {
		return 0, fmt.Errorf("relay: %w", err)
	}
	var done bool
	if err := s.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM cdc_relay_state WHERE slot_name = $1 AND snapshot_done_on IS NOT NULL)", s.cfg.Slot).Scan(&done); err != nil {
		return 0, fmt.Errorf("relay: %w", err)
	}
	if slotExists && done {
		// Streaming goes on from the slot's confirmed position, the end of
		// the last transaction Kafka acknowledged (the relay confirms no
		// other), so the changes it replays carry the sequence they had;
		// none yet when it is still the snapshot's.
		var confirmed, snapshotLSN pglogrepl.LSN
		if err := s.pool.QueryRow(ctx, `SELECT s.confirmed_flush_lsn::text, r.snapshot_lsn::text FROM pg_replication_slots s
			JOIN cdc_relay_state r ON r.slot_name = s.slot_name WHERE s.slot_name = $1`, s.cfg.Slot).Scan(lsnText{&confirmed}, lsnText{&snapshotLSN}); err != nil {
			return 0, fmt.Errorf("relay: %w", err)
		}
		if confirmed != snapshotLSN {
			s.lastCommit = confirmed
		}
		return 0, nil
	}
	if slotExists {
		s.cfg.Log.Warn("the slot's snapshot did not finish; starting over with a new slot", "slot", s.cfg.Slot)
		if err := pglogrepl.DropReplicationSlot(ctx, s.repl, s.cfg.Slot, pglogrepl.DropReplicationSlotOptions{Wait: true}); err != nil {
			return 0, fmt.Errorf("relay: drop slot: %w", err)
		}
	}
	res, err := pglogrepl.CreateReplicationSlot(ctx, s.repl, s.cfg.Slot, "pgoutput",
		pglogrepl.CreateReplicationSlotOptions{Mode: pglogrepl.LogicalReplication, SnapshotAction: "EXPORT_SNAPSHOT"})
	if err != nil {
		return 0, fmt.Errorf("relay: create slot: %w", err)
	}
	point, err := pglogrepl.ParseLSN(res.ConsistentPoint)
	if err != nil {
		return 0, fmt.Errorf("relay: %w", err)
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO cdc_relay_state (slot_name, snapshot_lsn) VALUES ($1, $2)
		ON CONFLICT (slot_name) DO UPDATE SET snapshot_lsn = excluded.snapshot_lsn, snapshot_done_on = NULL`, s.cfg.Slot, point.String()); err != nil {
		return 0, fmt.Errorf("relay: %w", err)
	}
	start := time.Now()
	n, err := Snapshot(ctx, s.pool, res.SnapshotName, point, s.cfg, nil, func(m kafkago.Message) error {
		return s.prod.send(ctx, item{msg: m})
	})
	if err != nil {
		return 0, err
	}
	if err := s.prod.flush(ctx); err != nil {
		return 0, err
	}
	if _, err := s.pool.Exec(ctx, "UPDATE cdc_relay_state SET snapshot_done_on = now() WHERE slot_name = $1", s.cfg.Slot); err != nil {
		return 0, fmt.Errorf("relay: %w", err)
	}
	s.cfg.Log.Info("snapshot delivered", "rows", n, "lsn", point.String(), "took", time.Since(start).Round(time.Millisecond))
	return point, nil
}

// stream reads the slot from start and hands every change to the producer.
func (s *streamer) stream(ctx context.Context, start pglogrepl.LSN) error {
	err := pglogrepl.StartReplication(ctx, s.repl, s.cfg.Slot, start, pglogrepl.StartReplicationOptions{
		Mode:       pglogrepl.LogicalReplication,
		PluginArgs: []string{"proto_version '1'", "publication_names '" + s.cfg.Publication + "'"},
	})
	if err != nil {
		return fmt.Errorf("relay: start replication: %w", err)
	}
	var (
		inTx       bool
		tx         txInfo
		lastChange = time.Now()
		nextStatus = time.Now().Add(s.cfg.StatusInterval)
		confirmed  pglogrepl.LSN
	)
	sendStatus := func(reply bool) error {
		// Only the end of a transaction Kafka acknowledged is confirmed,
		// never a keepalive's position past it: a relay started again
		// takes the confirmed position for the last commit in
		// source.sequence, which must be what the replayed changes had.
		// The heartbeat's transactions keep the slot moving when nothing
		// else changes.
		pos := s.prod.acked()
		if pos < confirmed {
			pos = confirmed
		}
		if err := pglogrepl.SendStandbyStatusUpdate(ctx, s.repl, pglogrepl.StandbyStatusUpdate{WALWritePosition: pos, ReplyRequested: reply}); err != nil {
			return fmt.Errorf("relay: status update: %w", err)
		}
		if pos > confirmed && s.cfg.OnAck != nil {
			s.cfg.OnAck(pos)
		}
		s.cfg.Metrics.Confirmed.Set(float64(pos))
		confirmed = pos
		nextStatus = time.Now().Add(s.cfg.StatusInterval)
		return nil
	}
	heartbeat := make(chan error, 1)
	beating := false
	for {
		if time.Now().After(nextStatus) {
			if err := sendStatus(false); err != nil {
				return err
			}
		}
		select {
		case err := <-heartbeat:
			beating = false
			if err != nil {
				return fmt.Errorf("relay: heartbeat: %w", err)
			}
		default:
		}
		if !beating && time.Since(lastChange) > s.cfg.HeartbeatInterval {
			beating = true
			lastChange = time.Now()
			go func() {
				hctx, hcancel := context.WithTimeout(ctx, 10*time.Second)
				defer hcancel()
				_, err := s.pool.Exec(hctx, HeartbeatQuery)
				heartbeat <- err
			}()
		}
		rctx, rcancel := context.WithDeadline(ctx, nextStatus)
		raw, err := s.repl.ReceiveMessage(rctx)
		rcancel()
		if err != nil {
			if ctx.Err() != nil {
				// A clean stop confirms what Kafka has, so the next relay
				// does not send it again.
				_ = pglogrepl.SendStandbyStatusUpdate(context.Background(), s.repl, pglogrepl.StandbyStatusUpdate{WALWritePosition: max(s.prod.acked(), confirmed)})
				return ctx.Err()
			}
			if pgconn.Timeout(err) {
				continue
			}
			return fmt.Errorf("relay: receive: %w", err)
		}
		switch m := raw.(type) {
		case *pgproto3.ErrorResponse:
			return fmt.Errorf("relay: %w", pgconn.ErrorResponseToPgError(m))
		case *pgproto3.CopyData:
			if len(m.Data) == 0 {
				continue
			}
			switch m.Data[0] {
			case pglogrepl.PrimaryKeepaliveMessageByteID:
				ka, err := pglogrepl.ParsePrimaryKeepaliveMessage(m.Data[1:])
				if err != nil {
					return fmt.Errorf("relay: %w", err)
				}
				if ka.ReplyRequested {
					if err := sendStatus(false); err != nil {
						return err
					}
				}
			case pglogrepl.XLogDataByteID:
				xld, err := pglogrepl.ParseXLogData(m.Data[1:])
				if err != nil {
					return fmt.Errorf("relay: %w", err)
				}
				lastChange = time.Now()
				if err := s.handle(ctx, xld, &inTx, &tx); err != nil {
					return err
				}
			}
		}
	}
}

// txInfo is the transaction being streamed.
type txInfo struct {
	xid        uint32
	commitLSN  pglogrepl.LSN
	commitTime time.Time
}

func (s *streamer) handle(ctx context.Context, xld pglogrepl.XLogData, inTx *bool, tx *txInfo) error {
	msg, err := pglogrepl.Parse(xld.WALData)
	if err != nil {
		return fmt.Errorf("relay: parse: %w", err)
	}
	switch m := msg.(type) {
	case *pglogrepl.RelationMessage:
		return s.relation(ctx, m)
	case *pglogrepl.BeginMessage:
		*inTx = true
		*tx = txInfo{xid: m.Xid, commitLSN: m.FinalLSN, commitTime: m.CommitTime}
	case *pglogrepl.CommitMessage:
		*inTx = false
		s.cfg.Log.Debug("commit received", "lsn", m.CommitLSN, "end", m.TransactionEndLSN)
		s.lastCommit = m.TransactionEndLSN
		return s.prod.send(ctx, item{commit: m.TransactionEndLSN, commitTime: m.CommitTime})
	case *pglogrepl.InsertMessage:
		rel, err := s.rel(m.RelationID)
		if err != nil || rel.skip {
			return err
		}
		return s.emit(ctx, rel, "c", nil, m.Tuple, xld.WALStart, tx)
	case *pglogrepl.UpdateMessage:
		rel, err := s.rel(m.RelationID)
		if err != nil || rel.skip {
			return err
		}
		if m.OldTuple != nil && keyChanged(rel, m.OldTuple, m.NewTuple) {
			// As Debezium does: a delete of the old key, then a create of
			// the new, each on its key's partition (no tombstone:
			// tombstones.on.delete=false).
			if err := s.emit(ctx, rel, "d", m.OldTuple, nil, xld.WALStart, tx); err != nil {
				return err
			}
			return s.emitCreate(ctx, rel, m.OldTuple, m.NewTuple, xld.WALStart, tx)
		}
		return s.emit(ctx, rel, "u", m.OldTuple, m.NewTuple, xld.WALStart, tx)
	case *pglogrepl.DeleteMessage:
		rel, err := s.rel(m.RelationID)
		if err != nil || rel.skip {
			return err
		}
		return s.emit(ctx, rel, "d", m.OldTuple, nil, xld.WALStart, tx)
	case *pglogrepl.TruncateMessage:
		for _, id := range m.RelationIDs {
			rel, err := s.rel(id)
			if err != nil {
				return err
			}
			if rel.skip {
				continue
			}
			if err := s.emit(ctx, rel, "t", nil, nil, xld.WALStart, tx); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *streamer) rel(id uint32) (*relation, error) {
	r, ok := s.rels[id]
	if !ok {
		return nil, fmt.Errorf("relay: change for relation %d before its Relation message", id)
	}
	return r, nil
}

func (s *streamer) relation(ctx context.Context, m *pglogrepl.RelationMessage) error {
	r := &relation{schema: m.Namespace, table: m.RelationName}
	r.skip = excluded(r.schema + "." + r.table)
	for _, c := range m.Columns {
		r.cols = append(r.cols, column{name: c.Name, oid: c.DataType, typmod: c.TypeModifier})
	}
	pk, err := primaryKey(ctx, s.pool, m.RelationID)
	if err != nil {
		return err
	}
	for i, c := range r.cols {
		for _, k := range pk {
			if c.name == k {
				r.pk = append(r.pk, i)
			}
		}
	}
	if len(r.pk) == 0 { // no primary key: the replica identity columns
		for i, c := range m.Columns {
			if c.Flags&1 != 0 {
				r.pk = append(r.pk, i)
			}
		}
	}
	s.rels[m.RelationID] = r
	return nil
}

func primaryKey(ctx context.Context, q interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}, relid uint32) ([]string, error) {
	rows, err := q.Query(ctx, `SELECT a.attname FROM pg_index i
		JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
		WHERE i.indrelid = $1 AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)`, relid)
	if err != nil {
		return nil, fmt.Errorf("relay: primary key of %d: %w", relid, err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// emit encodes one change and hands it to the producer.
func (s *streamer) emit(ctx context.Context, rel *relation, op string, oldT, newT *pglogrepl.TupleData, lsn pglogrepl.LSN, tx *txInfo) error {
	var before, after []value
	if oldT != nil {
		before = tupleValues(oldT, nil)
	}
	if newT != nil {
		after = tupleValues(newT, before)
	}
	return s.send(ctx, rel, op, before, after, lsn, tx)
}

// emitCreate is the create half of a primary-key update: no before, and
// the new row's unchanged TOASTed columns filled from the old.
func (s *streamer) emitCreate(ctx context.Context, rel *relation, oldT, newT *pglogrepl.TupleData, lsn pglogrepl.LSN, tx *txInfo) error {
	return s.send(ctx, rel, "c", nil, tupleValues(newT, tupleValues(oldT, nil)), lsn, tx)
}

func (s *streamer) send(ctx context.Context, rel *relation, op string, before, after []value, lsn pglogrepl.LSN, tx *txInfo) error {
	src := sourceInfo{
		name: s.cfg.TopicPrefix, db: s.dbName(), schema: rel.schema, table: rel.table,
		tsUs: tx.commitTime.UnixMicro(), txID: int64(tx.xid), lsn: lsn, lastCommit: s.lastCommit, snapshot: "false",
	}
	key, val, err := encodeEvent(rel, op, before, after, src)
	if err != nil {
		return err
	}
	return s.prod.send(ctx, item{msg: kafkago.Message{Topic: Topic(s.cfg.TopicPrefix, rel.schema, rel.table), Key: key, Value: val}})
}

// keyChanged reports whether an update changed the row's primary key: the
// old tuple (the key under REPLICA IDENTITY DEFAULT, which pgoutput sends
// only then; the whole row under FULL) and the new differ in a key column.
func keyChanged(rel *relation, oldT, newT *pglogrepl.TupleData) bool {
	for _, i := range rel.pk {
		if i >= len(oldT.Columns) || i >= len(newT.Columns) {
			return false
		}
		o, n := oldT.Columns[i], newT.Columns[i]
		if n.DataType == pglogrepl.TupleDataTypeToast || o.DataType == pglogrepl.TupleDataTypeToast {
			continue // unchanged
		}
		if o.DataType != n.DataType || !bytes.Equal(o.Data, n.Data) {
			return true
		}
	}
	return false
}

// lsnText scans an LSN's text form (NULL leaves it 0).
type lsnText struct{ lsn *pglogrepl.LSN }

func (l lsnText) Scan(src any) error {
	s, ok := src.(string)
	if !ok || s == "" {
		return nil
	}
	v, err := pglogrepl.ParseLSN(s)
	*l.lsn = v
	return err
}

func (s *streamer) dbName() string { return s.pool.Config().ConnConfig.Database }

// value is one column's text-format value; null and unchanged TOAST are
// marked.
type value struct {
	text      []byte
	null      bool
	unchanged bool
}

// tupleValues turns a pgoutput tuple into values. An unchanged TOASTed
// column takes its value from the old tuple when there is one (REPLICA
// IDENTITY FULL), else it stays marked unchanged.
func tupleValues(t *pglogrepl.TupleData, old []value) []value {
	out := make([]value, len(t.Columns))
	for i, c := range t.Columns {
		switch c.DataType {
		case pglogrepl.TupleDataTypeNull:
			out[i] = value{null: true}
		case pglogrepl.TupleDataTypeToast:
			if i < len(old) && !old[i].unchanged {
				out[i] = old[i]
			} else {
				out[i] = value{unchanged: true}
			}
		default:
			out[i] = value{text: c.Data}
		}
	}
	return out
}
