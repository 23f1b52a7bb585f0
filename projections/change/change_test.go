package change_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/projections/change"
	"agora/projections/projectiontest"
)

func ptr[T any](v T) *T { return &v }

// TestDecodeDebeziumFixtures decodes messages the Debezium Postgres
// connector wrote (JsonConverter, schemas disabled; recorded by
// app.TestRelayEnvelopeEqualsDebezium with AGORA_RECORD_FIXTURES=1, which
// changes the LSNs below) and checks every typed value.
func TestDecodeDebeziumFixtures(t *testing.T) {
	id1 := uuid.MustParse("0193a2c4-5b7e-7c3a-9f10-2d4e6a8b0c11")
	id2 := uuid.MustParse("0193a2c4-5b7e-7c3a-9f10-2d4e6a8b0c22")
	inserted := &projectiontest.TypedRow{
		ID: id2, CreatedOn: time.Date(2026, 11, 20, 9, 16, 0, 0, time.UTC), Data: json.RawMessage(`{"nested":{"k":"v"}}`),
		Amount: ptr("0.05"), Tags: []string{}, Flag: false, Note: ptr("hello"),
	}
	updated := &projectiontest.TypedRow{
		ID: id2, CreatedOn: time.Date(2026, 11, 20, 9, 16, 0, 0, time.UTC), Data: json.RawMessage(`{"nested":{"k":"w"}}`),
		Amount: ptr("-17.25"), Tags: []string{"a", "b"}, N: ptr[int32](42), Flag: true, Note: ptr("hello"),
	}
	tests := []struct {
		fixture  string
		want     projectiontest.TypedChange
		snapshot string
		pos      change.Position
	}{
		{"read", projectiontest.TypedChange{Op: change.Read, Table: "public.typed_rows", Key: id1.String(), After: &projectiontest.TypedRow{
			ID: id1, CreatedOn: time.Date(2026, 11, 20, 9, 15, 30, 123456000, time.UTC), Data: json.RawMessage(`{"a":1,"tags":["go","sql"]}`),
			Amount: ptr("1234.50"), Tags: []string{"first", "with space", `quote"d`}, N: ptr[int32](7), Flag: true,
		}}, "last", change.Position{Commit: 0, Change: 26477600}},
		{"insert", projectiontest.TypedChange{Op: change.Create, Table: "public.typed_rows", Key: id2.String(), After: inserted}, "false", change.Position{Commit: 26478576, Change: 26478576}},
		{"update", projectiontest.TypedChange{Op: change.Update, Table: "public.typed_rows", Key: id2.String(), Before: inserted, After: updated}, "false", change.Position{Commit: 26478840, Change: 26478840}},
		{"delete", projectiontest.TypedChange{Op: change.Delete, Table: "public.typed_rows", Key: id2.String(), Before: updated}, "false", change.Position{Commit: 26479160, Change: 26479160}},
		{"truncate", projectiontest.TypedChange{Op: change.Truncate, Table: "public.typed_rows"}, "false", change.Position{Commit: 26479384, Change: 26482296}},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			f, err := projectiontest.LoadFixture("testdata", tt.fixture)
			if err != nil {
				t.Fatal(err)
			}
			c, err := change.Decode(f.Topic, f.Key, f.Value)
			if err != nil {
				t.Fatal(err)
			}
			got, err := projectiontest.Typed(c)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("typed change\n got %s\nwant %s", show(got), show(tt.want))
			}
			if c.Source.Snapshot != tt.snapshot || c.Source.Connector != "postgresql" || c.Source.Name != "agora" || c.Source.TxID == 0 {
				t.Fatalf("source %+v", c.Source)
			}
			if p := c.Position(); p != tt.pos {
				t.Fatalf("position %+v, want %+v", p, tt.pos)
			}
			if c.Row() == nil && c.Op != change.Truncate {
				t.Fatal("no row")
			}
		})
	}
}

func show(tc projectiontest.TypedChange) string {
	b, _ := json.Marshal(tc)
	return string(b)
}

func TestPositionsOrderAStream(t *testing.T) {
	var prev change.Position
	for i, name := range projectiontest.FixtureNames {
		f, err := projectiontest.LoadFixture("testdata", name)
		if err != nil {
			t.Fatal(err)
		}
		c, err := change.Decode(f.Topic, f.Key, f.Value)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && !prev.Less(c.Position()) {
			t.Fatalf("%s: position %+v not after %+v", name, c.Position(), prev)
		}
		prev = c.Position()
	}
}

// TestPositionAfterASnapshot orders what source.sequence alone cannot: a
// transaction that began before a snapshot and committed after it has
// changes at LSNs below the snapshot's, and the first transaction after
// a snapshot has no previous commit (null); both are newer than the
// snapshot's reads, and the next transaction is newer still.
func TestPositionAfterASnapshot(t *testing.T) {
	at := func(op change.Op, seq string, lsn int64) change.Position {
		return change.Change{Op: op, Source: change.Source{Sequence: seq, LSN: lsn}}.Position()
	}
	stream := []struct {
		name string
		pos  change.Position
	}{
		{"a read of an earlier snapshot", at(change.Read, `[null,"900"]`, 900)},
		{"a read of the snapshot", at(change.Read, `[null,"1000"]`, 1000)},
		{"the first transaction after it, begun before it", at(change.Update, `[null,"950"]`, 950)},
		{"its next change", at(change.Update, `[null,"1100"]`, 1100)},
		{"the next transaction", at(change.Update, `["1180","1040"]`, 1040)},
		{"the one after", at(change.Delete, `["1300","1300"]`, 1300)},
	}
	for i := 1; i < len(stream); i++ {
		if !stream[i-1].pos.Less(stream[i].pos) {
			t.Errorf("%s (%+v) is not before %s (%+v)", stream[i-1].name, stream[i-1].pos, stream[i].name, stream[i].pos)
		}
	}
	if p := at(change.Update, `["1180","1040"]`, 1040); p.Less(p) {
		t.Error("a replayed change is newer than itself")
	}
}

func TestDecodeRejectsWhatIsNotAnEvent(t *testing.T) {
	tests := []struct {
		name  string
		value string
		want  error
	}{
		{"tombstone", "", change.ErrTombstone},
		{"null", "null", change.ErrTombstone},
		{"not json", "{oops", change.ErrMalformed},
		{"unknown op", `{"op":"x","source":{"schema":"public","table":"t"}}`, change.ErrMalformed},
		{"no source", `{"op":"c","after":{"id":1}}`, change.ErrMalformed},
		{"create without after", `{"op":"c","after":null,"source":{"schema":"public","table":"t"}}`, change.ErrMalformed},
		{"delete without before", `{"op":"d","before":null,"source":{"schema":"public","table":"t"}}`, change.ErrMalformed},
		{"row not an object", `{"op":"c","after":[1],"source":{"schema":"public","table":"t"}}`, change.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := change.Decode("agora.public.t", []byte(`{"id":1}`), []byte(tt.value))
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

// TestDecodeSchemasEnabled accepts the envelope with schemas, as a
// connector left at JsonConverter's default writes it.
func TestDecodeSchemasEnabled(t *testing.T) {
	v := `{"schema":{"type":"struct","fields":[]},"payload":{"before":null,"after":{"id":5,"name":"x"},"source":{"schema":"public","table":"t","lsn":10},"op":"c","ts_ms":1}}`
	k := `{"schema":{"type":"struct"},"payload":{"id":5}}`
	c, err := change.Decode("agora.public.t", []byte(k), []byte(v))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := c.Key.Int64("id"); n != 5 || c.Op != change.Create || c.Table != "t" {
		t.Fatalf("%+v", c)
	}
	if s, _ := c.After.String("name"); s != "x" {
		t.Fatalf("name %q", s)
	}
}

func TestRowAccessors(t *testing.T) {
	r := change.Row{
		"s": json.RawMessage(`"text"`), "i": json.RawMessage(`12`), "f": json.RawMessage(`1.5`), "nan": json.RawMessage(`"NaN"`),
		"b": json.RawMessage(`true`), "ts": json.RawMessage(`"2026-11-20T09:15:30.5+02:00"`), "micro": json.RawMessage(`1763630130123456`),
		"j": json.RawMessage(`"{\"a\":1}"`), "arr": json.RawMessage(`["x","y"]`), "bin": json.RawMessage(`"AQID"`),
		"num": json.RawMessage(`"3.10"`), "null": json.RawMessage(`null`),
	}
	if s, err := r.String("s"); err != nil || s != "text" {
		t.Fatal(s, err)
	}
	if n, err := r.Int64("i"); err != nil || n != 12 {
		t.Fatal(n, err)
	}
	if f, err := r.Float64("f"); err != nil || f != 1.5 {
		t.Fatal(f, err)
	}
	if f, err := r.Float64("nan"); err != nil || f == f {
		t.Fatal(f, err)
	}
	if b, err := r.Bool("b"); err != nil || !b {
		t.Fatal(b, err)
	}
	if ts, err := r.Time("ts"); err != nil || !ts.Equal(time.Date(2026, 11, 20, 7, 15, 30, 5e8, time.UTC)) || ts.Location() != time.UTC {
		t.Fatal(ts, err)
	}
	if ts, err := r.Time("micro"); err != nil || ts.UnixMicro() != 1763630130123456 {
		t.Fatal(ts, err)
	}
	if j, err := r.JSON("j"); err != nil || string(j) != `{"a":1}` {
		t.Fatal(string(j), err)
	}
	if a, err := r.Strings("arr"); err != nil || !reflect.DeepEqual(a, []string{"x", "y"}) {
		t.Fatal(a, err)
	}
	if b, err := r.Bytes("bin"); err != nil || !reflect.DeepEqual(b, []byte{1, 2, 3}) {
		t.Fatal(b, err)
	}
	if d, err := r.Decimal("num"); err != nil || d != "3.10" {
		t.Fatal(d, err)
	}
	if _, err := r.String("null"); !errors.Is(err, change.ErrNull) {
		t.Fatal(err)
	}
	if _, err := r.String("missing"); !errors.Is(err, change.ErrNoColumn) {
		t.Fatal(err)
	}
	if !r.IsNull("null") || !r.IsNull("missing") || r.IsNull("s") || !r.Has("null") {
		t.Fatal("IsNull/Has")
	}
	var s struct {
		S      string
		I      int
		Nan    float64
		Micro  time.Time
		Null   *string
		Arr    []string
		Bin    []byte
		Custom string `cdc:"num"`
		Skip   string `cdc:"-"`
	}
	if err := r.Scan(&s); err != nil {
		t.Fatal(err)
	}
	if s.S != "text" || s.I != 12 || s.Null != nil || s.Custom != "3.10" || len(s.Arr) != 2 || len(s.Bin) != 3 {
		t.Fatalf("%+v", s)
	}
	var bad struct{ Null string }
	if err := r.Scan(&bad); !errors.Is(err, change.ErrNull) {
		t.Fatalf("NULL into a string: %v", err)
	}
}
