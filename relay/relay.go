package relay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/jackc/pgx/v5/pgxpool"
	kafkago "github.com/segmentio/kafka-go"

	"agora/internal/kafka"
)

// Defaults of Config.
const (
	DefaultSlot        = "agora_relay"
	DefaultPublication = "agora_cdc"
	DefaultTopicPrefix = "agora"
	// Version is what the relay writes as source.version.
	Version = "agora-relay-1"
)

// lockClass is the first half of the advisory lock that keeps a second
// relay of the same slot waiting; the second half is hashtext(slot).
const lockClass = 0x61676f72 // "agor"

// Excluded are the tables whose changes the relay does not emit: the
// migrations ledger and the relay's own bookkeeping.
var Excluded = []string{"public.schema_migrations", "public.cdc_relay_state", "public.cdc_heartbeat"}

// HeartbeatQuery is the heartbeat.action.query of both the relay and the
// Debezium connector config.
const HeartbeatQuery = `INSERT INTO cdc_heartbeat (id, beat_on) VALUES (1, now()) ON CONFLICT (id) DO UPDATE SET beat_on = excluded.beat_on`

// Config configures a relay.
type Config struct {
	// DatabaseURL is a postgres:// URL of the database to capture.
	DatabaseURL string
	// Brokers are the Kafka bootstrap addresses.
	Brokers []string
	// Slot, Publication and TopicPrefix default to agora_relay, agora_cdc
	// and agora.
	Slot, Publication, TopicPrefix string
	// Partitions of the topics the relay creates (kafka.DefaultPartitions).
	Partitions int
	// HeartbeatInterval is how long the relay lets pass without a change
	// before it writes a heartbeat (default 10 s).
	HeartbeatInterval time.Duration
	// StatusInterval is how often the relay confirms its position to
	// Postgres (default 1 s).
	StatusInterval time.Duration
	// OnAck, when set, is called with every LSN the relay confirms (tests).
	OnAck func(pglogrepl.LSN)
	// Metrics, when set, receive the relay's figures.
	Metrics *Metrics
	Log     *slog.Logger
}

func (c *Config) defaults() {
	if c.Slot == "" {
		c.Slot = DefaultSlot
	}
	if c.Publication == "" {
		c.Publication = DefaultPublication
	}
	if c.TopicPrefix == "" {
		c.TopicPrefix = DefaultTopicPrefix
	}
	if c.Partitions < 1 {
		c.Partitions = kafka.DefaultPartitions
	}
	if c.HeartbeatInterval <= 0 {
		c.HeartbeatInterval = 10 * time.Second
	}
	if c.StatusInterval <= 0 {
		c.StatusInterval = time.Second
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.Metrics == nil {
		c.Metrics = NewMetrics(nil)
	}
}

// Topic is the topic of a table's changes: prefix.schema.table.
func Topic(prefix, schema, table string) string { return prefix + "." + schema + "." + table }

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

func excluded(qualified string) bool {
	for _, e := range Excluded {
		if e == qualified {
			return true
		}
	}
	return false
}

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
		serverEnd  pglogrepl.LSN // the server's sent position, from keepalives
		lastChange = time.Now()
		nextStatus = time.Now().Add(s.cfg.StatusInterval)
		confirmed  pglogrepl.LSN
	)
	sendStatus := func(reply bool) error {
		pos := s.prod.acked()
		// Nothing in flight and not inside a transaction: everything the
		// server sent is either delivered or skipped, so its position can be
		// confirmed; this keeps the slot moving while nothing changes.
		if !inTx && s.prod.idle() && serverEnd > pos {
			pos = serverEnd
		}
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
				if !inTx && ka.ServerWALEnd > serverEnd {
					serverEnd = ka.ServerWALEnd
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
	src := sourceInfo{
		name: s.cfg.TopicPrefix, db: s.dbName(), schema: rel.schema, table: rel.table,
		tsMs: tx.commitTime.UnixMilli(), txID: int64(tx.xid), lsn: lsn, commit: tx.commitLSN, snapshot: "false",
	}
	var before, after []value
	if oldT != nil {
		before = tupleValues(oldT, nil)
	}
	if newT != nil {
		after = tupleValues(newT, before)
	}
	key, val, err := encodeEvent(rel, op, before, after, src)
	if err != nil {
		return err
	}
	return s.prod.send(ctx, item{msg: kafkago.Message{Topic: Topic(s.cfg.TopicPrefix, rel.schema, rel.table), Key: key, Value: val}})
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

// sourceInfo is the source block of one event.
type sourceInfo struct {
	name, db, schema, table string
	tsMs, txID              int64
	lsn, commit             pglogrepl.LSN
	snapshot                string
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// encodeEvent writes the key and value of one change event.
func encodeEvent(rel *relation, op string, before, after []value, src sourceInfo) (key, val []byte, err error) {
	buf := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(buf)
	if op != "t" {
		row := after
		if row == nil {
			row = before
		}
		buf.Reset()
		buf.WriteByte('{')
		for i, ci := range rel.pk {
			if i > 0 {
				buf.WriteByte(',')
			}
			c := rel.cols[ci]
			appendString(buf, c.name)
			buf.WriteByte(':')
			if err := appendCol(buf, c, row, ci); err != nil {
				return nil, nil, err
			}
		}
		buf.WriteByte('}')
		key = bytes.Clone(buf.Bytes())
	}
	buf.Reset()
	buf.WriteString(`{"before":`)
	if err := appendRow(buf, rel, before); err != nil {
		return nil, nil, err
	}
	buf.WriteString(`,"after":`)
	if err := appendRow(buf, rel, after); err != nil {
		return nil, nil, err
	}
	now := time.Now()
	fmt.Fprintf(buf, `,"source":{"version":%q,"connector":"postgresql","name":%q,"ts_ms":%d,"snapshot":%q,"db":%q,"sequence":"[\"%d\",\"%d\"]","schema":%q,"table":%q,"txId":%d,"lsn":%d,"xmin":null}`,
		Version, src.name, src.tsMs, src.snapshot, src.db, uint64(src.commit), uint64(src.lsn), src.schema, src.table, src.txID, uint64(src.lsn))
	fmt.Fprintf(buf, `,"op":%q,"ts_ms":%d,"transaction":null}`, op, now.UnixMilli())
	return key, bytes.Clone(buf.Bytes()), nil
}

func appendRow(buf *bytes.Buffer, rel *relation, row []value) error {
	if row == nil {
		buf.WriteString("null")
		return nil
	}
	buf.WriteByte('{')
	for i, c := range rel.cols {
		if i > 0 {
			buf.WriteByte(',')
		}
		appendString(buf, c.name)
		buf.WriteByte(':')
		if err := appendCol(buf, c, row, i); err != nil {
			return err
		}
	}
	buf.WriteByte('}')
	return nil
}

func appendCol(buf *bytes.Buffer, c column, row []value, i int) error {
	if i >= len(row) || row[i].null {
		buf.WriteString("null")
		return nil
	}
	if row[i].unchanged {
		appendString(buf, "__debezium_unavailable_value")
		return nil
	}
	if err := appendValue(buf, c.oid, c.typmod, row[i].text); err != nil {
		return fmt.Errorf("relay: column %s: %w", c.name, err)
	}
	return nil
}

// item is what the streamer hands the producer: a message, or the end of a
// transaction (commit), or a flush request (done).
type item struct {
	msg        kafkago.Message
	commit     pglogrepl.LSN
	commitTime time.Time
	done       chan error
}

// producer writes messages in order, in batches, and tracks the LSN up to
// which Kafka has acknowledged everything.
type producer struct {
	w          *kafkago.Writer
	cfg        Config
	in         chan item
	ackedLSN   atomic.Uint64
	pending    atomic.Int64 // items handed over and not yet written
	topics     map[string]bool
	maxBatch   int
	lastCommit pglogrepl.LSN
}

func newProducer(w *kafkago.Writer, cfg Config) *producer {
	return &producer{w: w, cfg: cfg, in: make(chan item, 8192), topics: map[string]bool{}, maxBatch: 4000}
}

func (p *producer) send(ctx context.Context, it item) error {
	p.pending.Add(1)
	select {
	case p.in <- it:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// flush waits until everything sent before it is written.
func (p *producer) flush(ctx context.Context) error {
	done := make(chan error, 1)
	if err := p.send(ctx, item{done: done}); err != nil {
		return err
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (p *producer) acked() pglogrepl.LSN { return pglogrepl.LSN(p.ackedLSN.Load()) }
func (p *producer) idle() bool           { return p.pending.Load() == 0 }

func (p *producer) run(ctx context.Context) error {
	var (
		batch   []kafkago.Message
		waiters []chan error
		commits []time.Time
		commit  pglogrepl.LSN
		n       int64
	)
	for {
		batch, waiters, commits, commit, n = batch[:0], waiters[:0], commits[:0], 0, 0
		// Block for the first item, then take what is queued, up to a batch.
		select {
		case it := <-p.in:
			n++
			p.take(it, &batch, &waiters, &commit, &commits)
		case <-ctx.Done():
			return ctx.Err()
		}
	drain:
		for len(batch) < p.maxBatch {
			select {
			case it := <-p.in:
				n++
				p.take(it, &batch, &waiters, &commit, &commits)
			default:
				break drain
			}
		}
		err := p.write(ctx, batch)
		p.cfg.Log.Debug("batch written", "messages", len(batch), "commit", commit, "err", err)
		for _, w := range waiters {
			w <- err
		}
		if err != nil {
			return err
		}
		if commit > 0 {
			p.ackedLSN.Store(uint64(commit))
		}
		p.cfg.Metrics.Messages.Add(float64(len(batch)))
		now := time.Now()
		for _, ct := range commits {
			p.cfg.Metrics.Delay.Observe(now.Sub(ct).Seconds())
		}
		p.pending.Add(-n)
	}
}

func (p *producer) take(it item, batch *[]kafkago.Message, waiters *[]chan error, commit *pglogrepl.LSN, commits *[]time.Time) {
	switch {
	case it.done != nil:
		*waiters = append(*waiters, it.done)
	case it.commit > 0:
		*commit = it.commit
		*commits = append(*commits, it.commitTime)
	default:
		*batch = append(*batch, it.msg)
	}
}

func (p *producer) write(ctx context.Context, batch []kafkago.Message) error {
	if len(batch) == 0 {
		return nil
	}
	var missing []string
	for _, m := range batch {
		if !p.topics[m.Topic] {
			p.topics[m.Topic] = true
			missing = append(missing, m.Topic)
		}
	}
	if len(missing) > 0 {
		if err := kafka.EnsureTopics(ctx, p.cfg.Brokers, p.cfg.Partitions, missing...); err != nil {
			for _, t := range missing {
				delete(p.topics, t)
			}
			return err
		}
	}
	if err := p.w.WriteMessages(ctx, batch...); err != nil {
		return fmt.Errorf("relay: write to kafka: %w", err)
	}
	return nil
}
