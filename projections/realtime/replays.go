package realtime

import (
	"sort"
	"strings"
	"sync"

	"agora/projections/change"
)

// delivered remembers the position of the last change delivered for each
// recently changed row, so that a change read a second time is not
// delivered twice: Debezium's Connect worker, killed, sends again what it
// produced since its last offset flush (with the positions it had), and
// the runner applies a batch again after a failure. The other projections
// drop such a change against the position their target holds; this one
// has no target, so it keeps the positions in memory, for the rows of the
// last two generations of changes (a replay comes seconds after the
// first delivery, not hours).
type delivered struct {
	mu        sync.Mutex
	cur, prev map[string]change.Position
	limit     int
}

// deliveredLimit is the number of rows of one generation: a few seconds'
// worth of changes at a busy hour, a few MB.
const deliveredLimit = 1 << 16

func newDelivered(limit int) *delivered {
	return &delivered{cur: map[string]change.Position{}, limit: limit}
}

// fresh reports whether c is newer than what was delivered for its row.
// A truncate, which has no row, is always fresh.
func (d *delivered) fresh(c change.Change) bool {
	k, ok := rowKey(c)
	if !ok {
		return true
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	last, ok := d.cur[k]
	if !ok {
		last, ok = d.prev[k]
	}
	return !ok || last.Less(c.Position())
}

// done records that c was delivered.
func (d *delivered) done(c change.Change) {
	k, ok := rowKey(c)
	if !ok {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.cur) >= d.limit {
		d.prev, d.cur = d.cur, make(map[string]change.Position, d.limit)
	}
	d.cur[k] = c.Position()
}

// rowKey is the changed row's table and primary key, as one string.
func rowKey(c change.Change) (string, bool) {
	if len(c.Key) == 0 {
		return "", false
	}
	cols := make([]string, 0, len(c.Key))
	for col := range c.Key {
		cols = append(cols, col)
	}
	sort.Strings(cols)
	var b strings.Builder
	b.WriteString(c.QualifiedTable())
	for _, col := range cols {
		b.WriteByte(0)
		b.WriteString(col)
		b.WriteByte(0)
		b.Write(c.Key[col])
	}
	return b.String(), true
}
