// Package change decodes the change events of the CDC stream — Debezium's
// Postgres connector envelope, JSON with schemas disabled, as written by
// Debezium on Kafka Connect or by Agora's own relay — into typed row
// changes that projections apply.
//
// A message's key is the row's primary key as a JSON object; its value is
//
//	{"before": {...}|null, "after": {...}|null,
//	 "source": {"version", "connector", "name", "ts_ms", "snapshot", "db",
//	            "sequence", "schema", "table", "txId", "lsn", "xmin"},
//	 "op": "c"|"u"|"d"|"r"|"t", "ts_ms": ...}
//
// Column values arrive as Debezium encodes them under the converter
// settings in relay (strings for uuid, jsonb, numeric and
// timestamptz; numbers for integers; JSON arrays for arrays; base64 for
// bytea). Row's accessors and Row.Scan turn them into Go values. An envelope
// with schemas enabled ({"schema": ..., "payload": ...}) is accepted too.
package change

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Op is the kind of a change.
type Op string

// The operations of Debezium's envelope.
const (
	Create   Op = "c" // a row inserted
	Update   Op = "u" // a row updated
	Delete   Op = "d" // a row deleted
	Read     Op = "r" // a row read by a snapshot
	Truncate Op = "t" // a table truncated (no key, no row)
)

// ErrTombstone is returned for the empty message that follows a delete when
// the connector writes tombstones (for log compaction); it carries no
// change and is skipped.
var ErrTombstone = errors.New("change: tombstone")

// ErrMalformed wraps every reason a message is not a change event.
var ErrMalformed = errors.New("change: malformed event")

// Source is where and when a change happened in Postgres.
type Source struct {
	Version   string `json:"version"`
	Connector string `json:"connector"`
	Name      string `json:"name"`
	// TsMs is the commit time of the transaction (the snapshot time for
	// op r), in milliseconds since the epoch.
	TsMs int64 `json:"ts_ms"`
	// Snapshot is "true", "first", "last" (and Debezium 2's
	// "first_in_data_collection", "last_in_data_collection") for snapshot
	// reads, "false" or "" for streamed changes.
	Snapshot string `json:"snapshot"`
	DB       string `json:"db"`
	// Sequence is a JSON array of two LSN strings as Debezium writes it:
	// the end of the previous transaction's commit record (null for a
	// snapshot read and the first transaction after a snapshot), then the
	// change's own LSN.
	Sequence string `json:"sequence"`
	Schema   string `json:"schema"`
	Table    string `json:"table"`
	TxID     int64  `json:"txId"`
	// LSN is the position of the change record in the write-ahead log.
	LSN  int64  `json:"lsn"`
	Xmin *int64 `json:"xmin"`
}

// Change is one decoded change event.
type Change struct {
	// Topic, Partition and Offset say where the event was read, and Time
	// is the record's timestamp (when its producer sent it, or when the
	// broker appended it under LogAppendTime); the runner fills them.
	Topic     string
	Partition int
	Offset    int64
	Time      time.Time

	Op Op
	// Schema and Table name the changed table (from source).
	Schema, Table string
	// Key is the primary key; nil for a truncate.
	Key Row
	// Before is the row before the change (updates and deletes of tables
	// with REPLICA IDENTITY FULL); After the row after it (c, u, r).
	Before, After Row
	Source        Source
	// TsMs is when the connector processed the change.
	TsMs int64
}

// Row is the current row of the change: After, or Before for a delete.
func (c Change) Row() Row {
	if c.After != nil {
		return c.After
	}
	return c.Before
}

// Position orders the changes of one row. source.sequence is
// ["<end of the previous transaction's commit>", "<the change's LSN>"],
// as Debezium writes it (and the relay): transactions reach the stream in
// commit order, each one's first element is at least the end of the one
// before, and a transaction's records are in LSN order, so (Commit,
// Change) grows with every change of a row. Projections store it to drop a
// change that is not newer than what they hold (replays after a crash or
// a rebalance).
//
// Two cases have no previous commit to go by. A snapshot read (op r) is
// older than every streamed change: it has Commit 0 and the snapshot's
// LSN as Change, so the reads of a later snapshot (a snapshot redone)
// replace an earlier one's. The first transaction after a snapshot has a
// null first element: it has Commit 1, after every read and before the
// next transaction, whose first element is its commit. A change's own
// LSN cannot stand in for either: a transaction that began before the
// snapshot and committed after it has changes at LSNs below the
// snapshot's, yet is newer than the snapshot.
type Position struct {
	Commit uint64
	Change uint64
}

// Less reports whether p comes before q.
func (p Position) Less(q Position) bool {
	if p.Commit != q.Commit {
		return p.Commit < q.Commit
	}
	return p.Change < q.Change
}

// Position returns the change's position; see the type.
func (c Change) Position() Position {
	lsn := uint64(c.Source.LSN)
	if c.Op == Read {
		return Position{Commit: 0, Change: lsn}
	}
	return Position{Commit: c.LastCommit(), Change: lsn}
}

// LastCommit is source.sequence's first element: the end of the commit of
// the transaction before the change's; 1 when there is none (the first
// transaction after a snapshot, or a sequence that cannot be read).
func (c Change) LastCommit() uint64 {
	var parts []*string
	if err := json.Unmarshal([]byte(c.Source.Sequence), &parts); err == nil && len(parts) == 2 && parts[0] != nil {
		if v, err := strconv.ParseUint(*parts[0], 10, 64); err == nil && v > 1 {
			return v
		}
	}
	return 1
}

// QualifiedTable is schema.table.
func (c Change) QualifiedTable() string { return c.Schema + "." + c.Table }

type envelope struct {
	Before json.RawMessage `json:"before"`
	After  json.RawMessage `json:"after"`
	Source *Source         `json:"source"`
	Op     Op              `json:"op"`
	TsMs   int64           `json:"ts_ms"`
}

// Decode decodes one Kafka message of topic into a Change. An empty value
// is a tombstone (ErrTombstone); anything else that is not an envelope is
// ErrMalformed.
func Decode(topic string, key, value []byte) (Change, error) {
	value = bytes.TrimSpace(value)
	if len(value) == 0 || bytes.Equal(value, []byte("null")) {
		return Change{}, ErrTombstone
	}
	var env envelope
	if err := json.Unmarshal(unwrap(value), &env); err != nil {
		return Change{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	c := Change{Topic: topic, Op: env.Op, TsMs: env.TsMs}
	switch env.Op {
	case Create, Update, Delete, Read, Truncate:
	default:
		return Change{}, fmt.Errorf("%w: op %q", ErrMalformed, env.Op)
	}
	if env.Source == nil {
		return Change{}, fmt.Errorf("%w: no source", ErrMalformed)
	}
	c.Source = *env.Source
	c.Schema, c.Table = c.Source.Schema, c.Source.Table
	if c.Table == "" {
		// Fall back on the topic name, prefix.schema.table.
		if parts := strings.Split(topic, "."); len(parts) >= 3 {
			c.Schema, c.Table = parts[len(parts)-2], parts[len(parts)-1]
		} else {
			return Change{}, fmt.Errorf("%w: no table", ErrMalformed)
		}
	}
	var err error
	if c.Before, err = decodeRow(env.Before); err != nil {
		return Change{}, fmt.Errorf("%w: before: %v", ErrMalformed, err)
	}
	if c.After, err = decodeRow(env.After); err != nil {
		return Change{}, fmt.Errorf("%w: after: %v", ErrMalformed, err)
	}
	switch c.Op {
	case Create, Read, Update:
		if c.After == nil {
			return Change{}, fmt.Errorf("%w: op %s without after", ErrMalformed, c.Op)
		}
	case Delete:
		if c.Before == nil {
			return Change{}, fmt.Errorf("%w: delete without before", ErrMalformed)
		}
	}
	if k := bytes.TrimSpace(key); len(k) > 0 && !bytes.Equal(k, []byte("null")) {
		if c.Key, err = decodeRow(unwrap(k)); err != nil {
			return Change{}, fmt.Errorf("%w: key: %v", ErrMalformed, err)
		}
	}
	return c, nil
}

// unwrap returns the payload of a schemas-enabled envelope, or b itself.
func unwrap(b []byte) []byte {
	if !bytes.Contains(b, []byte(`"payload"`)) {
		return b
	}
	var w struct {
		Schema  json.RawMessage `json:"schema"`
		Payload json.RawMessage `json:"payload"`
	}
	if err := json.Unmarshal(b, &w); err == nil && w.Schema != nil && w.Payload != nil {
		return w.Payload
	}
	return b
}

func decodeRow(b json.RawMessage) (Row, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || bytes.Equal(b, []byte("null")) {
		return nil, nil
	}
	var r Row
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	if r == nil {
		r = Row{}
	}
	return r, nil
}
