package projectiontest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/google/uuid"

	"agora/projections/change"
)

// TypedRow is a row of the fixtures' typed_rows table
// (projections/change/testdata/typed_rows.sql), scanned from a change.
type TypedRow struct {
	ID        uuid.UUID
	CreatedOn time.Time
	Data      json.RawMessage
	Amount    *string
	Tags      []string
	N         *int32
	Flag      bool
	Note      *string
}

// TypedChange is a change of typed_rows with its rows typed: what the
// decoder tests and the relay test compare.
type TypedChange struct {
	Op            change.Op
	Table         string
	Key           string
	Before, After *TypedRow
}

// Typed types a change of typed_rows.
func Typed(c change.Change) (TypedChange, error) {
	tc := TypedChange{Op: c.Op, Table: c.QualifiedTable()}
	if c.Key != nil {
		id, err := c.Key.UUID("id")
		if err != nil {
			return tc, err
		}
		tc.Key = id.String()
	}
	for _, side := range []struct {
		row change.Row
		dst **TypedRow
	}{{c.Before, &tc.Before}, {c.After, &tc.After}} {
		if side.row == nil {
			continue
		}
		var r TypedRow
		if err := side.row.Scan(&r); err != nil {
			return tc, err
		}
		if r.Data != nil { // jsonb: compare documents, not spacing
			var b bytes.Buffer
			if err := json.Compact(&b, r.Data); err != nil {
				return tc, err
			}
			r.Data = b.Bytes()
		}
		if r.Tags == nil {
			r.Tags = []string{}
		}
		*side.dst = &r
	}
	return tc, nil
}

// Fixture is one captured Debezium message.
type Fixture struct {
	Topic string          `json:"topic"`
	Key   json.RawMessage `json:"key"`
	Value json.RawMessage `json:"value"`
}

// FixtureNames are the fixtures in the order they were captured.
var FixtureNames = []string{"read", "insert", "update", "delete", "truncate"}

// LoadFixture reads projections/change/testdata/<name>.json; dir is the
// path of that testdata folder from the calling test.
func LoadFixture(dir, name string) (Fixture, error) {
	var f Fixture
	b, err := os.ReadFile(filepath.Join(dir, name+".json"))
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return f, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}
