package realtime

import (
	"encoding/json"
	"fmt"
	"testing"

	"agora/projections/change"
)

// at is a change of post id at the position (commit, lsn).
func at(id string, commit, lsn uint64) change.Change {
	return change.Change{
		Op: change.Update, Schema: "public", Table: "posts",
		Key:    change.Row{"id": json.RawMessage(`"` + id + `"`)},
		Source: change.Source{LSN: int64(lsn), Sequence: fmt.Sprintf(`["%d","%d"]`, commit, lsn)},
	}
}

// A change read again (Connect's replay after a kill, the runner's retry
// of a batch) is not delivered twice; a newer change of the row is, and
// another row's is; the positions outlive one generation of rows.
func TestDeliveredOnce(t *testing.T) {
	d := newDelivered(2)
	first := at("a", 100, 150)
	if !d.fresh(first) {
		t.Fatal("a first change is not fresh")
	}
	d.done(first)
	if d.fresh(first) {
		t.Fatal("the same change again is fresh: it would be delivered twice")
	}
	if d.fresh(at("a", 90, 120)) {
		t.Fatal("an older change of the row is fresh")
	}
	if !d.fresh(at("a", 200, 210)) {
		t.Fatal("a newer change of the row is not fresh")
	}
	if !d.fresh(at("b", 100, 150)) {
		t.Fatal("another row's change is not fresh")
	}
	d.done(at("b", 100, 150))
	d.done(at("c", 100, 160)) // a new generation begins: a and b are the previous one
	if d.fresh(first) {
		t.Fatal("a row of the previous generation was forgotten")
	}
	if !d.fresh(change.Change{Op: change.Truncate, Schema: "public", Table: "posts"}) {
		t.Fatal("a truncate (no row) is not fresh")
	}
}
