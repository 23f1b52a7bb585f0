package relay

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5/pgtype"
)

// sourceInfo is the source block of one event.
type sourceInfo struct {
	name, db, schema, table string
	// tsUs is the commit time (the snapshot's start for op r), µs.
	tsUs, txID int64
	lsn        pglogrepl.LSN
	// lastCommit is the end of the previous transaction's commit record,
	// source.sequence's first element as Debezium writes it; 0 (null) for
	// snapshot reads and the first transaction after a snapshot.
	lastCommit pglogrepl.LSN
	snapshot   string
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
	last := "null"
	if src.lastCommit != 0 {
		last = `\"` + strconv.FormatUint(uint64(src.lastCommit), 10) + `\"`
	}
	// The fields in Debezium's order, ts_us and ts_ns beside ts_ms.
	fmt.Fprintf(buf, `,"source":{"version":%q,"connector":"postgresql","name":%q,"ts_ms":%d,"snapshot":%q,"db":%q,"sequence":"[%s,\"%d\"]","ts_us":%d,"ts_ns":%d,"schema":%q,"table":%q,"txId":%d,"lsn":%d,"xmin":null,"origin":null,"origin_lsn":null}`,
		Version, src.name, src.tsUs/1000, src.snapshot, src.db, last, uint64(src.lsn), src.tsUs, src.tsUs*1000, src.schema, src.table, src.txID, uint64(src.lsn))
	now := time.Now()
	fmt.Fprintf(buf, `,"transaction":null,"op":%q,"ts_ms":%d,"ts_us":%d,"ts_ns":%d}`, op, now.UnixMilli(), now.UnixMicro(), now.UnixNano())
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

// Postgres type OIDs the encoder treats specially. Every other type (text,
// varchar, enums, domains…) is sent as its text form, a JSON string.
const (
	oidBool        = pgtype.BoolOID
	oidInt2        = pgtype.Int2OID
	oidInt4        = pgtype.Int4OID
	oidInt8        = pgtype.Int8OID
	oidOID         = pgtype.OIDOID
	oidFloat4      = pgtype.Float4OID
	oidFloat8      = pgtype.Float8OID
	oidNumeric     = pgtype.NumericOID
	oidJSON        = pgtype.JSONOID
	oidJSONB       = pgtype.JSONBOID
	oidBytea       = pgtype.ByteaOID
	oidDate        = pgtype.DateOID
	oidTime        = pgtype.TimeOID
	oidTimestamp   = pgtype.TimestampOID
	oidTimestamptz = pgtype.TimestamptzOID
	oidInterval    = pgtype.IntervalOID
)

// arrayElem maps an array type to its element type, for the array types
// the schema uses and their near relatives.
var arrayElem = map[uint32]uint32{
	pgtype.BoolArrayOID:        oidBool,
	pgtype.Int2ArrayOID:        oidInt2,
	pgtype.Int4ArrayOID:        oidInt4,
	pgtype.Int8ArrayOID:        oidInt8,
	pgtype.Float4ArrayOID:      oidFloat4,
	pgtype.Float8ArrayOID:      oidFloat8,
	pgtype.NumericArrayOID:     oidNumeric,
	pgtype.TextArrayOID:        pgtype.TextOID,
	pgtype.VarcharArrayOID:     pgtype.VarcharOID,
	pgtype.BPCharArrayOID:      pgtype.BPCharOID,
	pgtype.UUIDArrayOID:        pgtype.UUIDOID,
	pgtype.JSONArrayOID:        oidJSON,
	pgtype.JSONBArrayOID:       oidJSONB,
	pgtype.DateArrayOID:        oidDate,
	pgtype.TimestampArrayOID:   oidTimestamp,
	pgtype.TimestamptzArrayOID: oidTimestamptz,
	pgtype.ByteaArrayOID:       oidBytea,
	pgtype.IntervalArrayOID:    oidInterval,
}

// epochDate is day 0 of io.debezium.time.Date.
var epochDate = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

// appendValue appends the Debezium JSON encoding of a column's text-format
// value (as pgoutput and the simple query protocol send it, with the
// session's TimeZone UTC, DateStyle ISO and IntervalStyle iso_8601).
func appendValue(buf *bytes.Buffer, oid uint32, typmod int32, text []byte) error {
	switch oid {
	case oidBool:
		if len(text) == 1 && text[0] == 't' {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case oidInt2, oidInt4, oidInt8, oidOID:
		buf.Write(text) // the text form is a JSON number
	case oidFloat4, oidFloat8:
		if _, err := strconv.ParseFloat(string(text), 64); err != nil || bytes.ContainsAny(text, "IN") {
			appendString(buf, string(text)) // NaN, Infinity: JSON has no such numbers
		} else {
			buf.Write(text)
		}
	case oidBytea:
		b, err := decodeBytea(text)
		if err != nil {
			return err
		}
		buf.WriteByte('"')
		buf.WriteString(base64.StdEncoding.EncodeToString(b))
		buf.WriteByte('"')
	case oidTimestamptz:
		t, err := parseTimestamptz(string(text))
		if err != nil {
			appendString(buf, string(text)) // infinity
			return nil
		}
		appendString(buf, t.UTC().Format("2006-01-02T15:04:05.000000Z"))
	case oidTimestamp:
		t, err := time.Parse("2006-01-02 15:04:05.999999999", string(text))
		if err != nil {
			appendString(buf, string(text))
			return nil
		}
		if typmod >= 0 && typmod <= 3 { // io.debezium.time.Timestamp
			buf.WriteString(strconv.FormatInt(t.UnixMilli(), 10))
		} else { // io.debezium.time.MicroTimestamp
			buf.WriteString(strconv.FormatInt(t.UnixMicro(), 10))
		}
	case oidDate:
		t, err := time.Parse("2006-01-02", string(text))
		if err != nil {
			appendString(buf, string(text))
			return nil
		}
		buf.WriteString(strconv.FormatInt(int64(t.Sub(epochDate)/(24*time.Hour)), 10))
	case oidTime:
		t, err := time.Parse("15:04:05.999999", string(text))
		if err != nil {
			appendString(buf, string(text))
			return nil
		}
		micros := int64(t.Hour())*3600e6 + int64(t.Minute())*60e6 + int64(t.Second())*1e6 + int64(t.Nanosecond()/1000)
		buf.WriteString(strconv.FormatInt(micros, 10))
	case oidInterval:
		appendString(buf, debeziumInterval(string(text)))
	default:
		if elem, ok := arrayElem[oid]; ok {
			return appendArray(buf, elem, typmod, text)
		}
		// text, varchar, uuid, json(b) (io.debezium.data.Json), numeric
		// (decimal.handling.mode=string), enums: the text form as a JSON
		// string.
		appendString(buf, string(text))
	}
	return nil
}

func appendString(buf *bytes.Buffer, s string) {
	b, _ := json.Marshal(s)
	buf.Write(b)
}

func parseTimestamptz(s string) (time.Time, error) {
	for _, layout := range []string{"2006-01-02 15:04:05.999999999-07", "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05.999999999-07:00:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("relay: timestamptz %q", s)
}

func decodeBytea(text []byte) ([]byte, error) {
	if bytes.HasPrefix(text, []byte(`\x`)) {
		out := make([]byte, hex.DecodedLen(len(text)-2))
		_, err := hex.Decode(out, text[2:])
		return out, err
	}
	return nil, fmt.Errorf("relay: bytea is not in hex output format")
}

// appendArray encodes a one-dimensional Postgres array literal as a JSON
// array of its elements' encodings.
func appendArray(buf *bytes.Buffer, elem uint32, typmod int32, text []byte) error {
	elems, err := parseArray(string(text))
	if err != nil {
		return err
	}
	buf.WriteByte('[')
	for i, e := range elems {
		if i > 0 {
			buf.WriteByte(',')
		}
		if e == nil {
			buf.WriteString("null")
			continue
		}
		if err := appendValue(buf, elem, typmod, []byte(*e)); err != nil {
			return err
		}
	}
	buf.WriteByte(']')
	return nil
}

// parseArray splits a one-dimensional array literal such as
// {a,"b c",NULL,"d\"e"} into its elements (nil for NULL).
func parseArray(s string) ([]*string, error) {
	if i := strings.IndexByte(s, '='); i > 0 && strings.HasPrefix(s, "[") { // [1:2]={...}
		s = s[i+1:]
	}
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' {
		return nil, fmt.Errorf("relay: array literal %q", s)
	}
	body := s[1 : len(s)-1]
	var out []*string
	if body == "" {
		return []*string{}, nil
	}
	for i := 0; i <= len(body); {
		var b strings.Builder
		quoted := false
		if i < len(body) && body[i] == '{' {
			return nil, fmt.Errorf("relay: multi-dimensional arrays are not supported")
		}
		if i < len(body) && body[i] == '"' {
			quoted = true
			i++
			for i < len(body) && body[i] != '"' {
				if body[i] == '\\' && i+1 < len(body) {
					i++
				}
				b.WriteByte(body[i])
				i++
			}
			i++ // closing quote
		} else {
			for i < len(body) && body[i] != ',' {
				b.WriteByte(body[i])
				i++
			}
		}
		v := b.String()
		if !quoted && v == "NULL" {
			out = append(out, nil)
		} else {
			out = append(out, &v)
		}
		i++ // the comma
	}
	return out, nil
}

// debeziumInterval turns Postgres's iso_8601 interval output ("P-1DT2H3M",
// "PT0.5S") into the form of Debezium's interval.handling.mode=string,
// which names every field ("P0Y0M-1DT2H3M0S"); anything else is kept.
func debeziumInterval(s string) string {
	if !strings.HasPrefix(s, "P") {
		return s
	}
	var y, mo, d, h, mi, sec string
	inTime := false
	num := ""
	for _, c := range s[1:] {
		switch {
		case c == 'T':
			inTime = true
		case c == '-' || c == '.' || (c >= '0' && c <= '9'):
			num += string(c)
		default:
			switch {
			case c == 'Y' && !inTime:
				y = num
			case c == 'M' && !inTime:
				mo = num
			case c == 'D' && !inTime:
				d = num
			case c == 'H' && inTime:
				h = num
			case c == 'M' && inTime:
				mi = num
			case c == 'S' && inTime:
				sec = num
			default:
				return s
			}
			num = ""
		}
	}
	if num != "" {
		return s
	}
	or0 := func(v string) string {
		if v == "" {
			return "0"
		}
		return v
	}
	return "P" + or0(y) + "Y" + or0(mo) + "M" + or0(d) + "DT" + or0(h) + "H" + or0(mi) + "M" + or0(sec) + "S"
}
