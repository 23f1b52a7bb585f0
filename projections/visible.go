package projections

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"agora/projections/change"
)

// visibleSQL says whether the transactions $1 (32-bit xids, as a change's
// source.txId has them) are all visible to a new snapshot. Each xid is
// widened to the 64-bit xid nearest the snapshot's xmax that ends in it:
// nearest, not the newest at or below, because Postgres reuses a backend's
// snapshot while no transaction has ended, so xmax can be older than a
// transaction still in progress. One too old to widen (a test's made-up
// xid) counts as visible.
const visibleSQL = `WITH s AS (SELECT pg_current_snapshot() AS snap, pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS top)
	SELECT COALESCE(bool_and(pg_visible_in_snapshot(GREATEST(top + d - CASE WHEN d >= 2147483648 THEN 4294967296 ELSE 0 END, 3)::text::xid8, snap)), true)
	FROM s, unnest($1::bigint[]) AS x, LATERAL (SELECT (x - top) & 4294967295 AS d) AS w`

// visibleWithin bounds the wait for a transaction to be visible; the
// window is microseconds, unless the machine is starved.
const visibleWithin = 10 * time.Second

// WaitVisible waits until every streamed change of cs is visible to the
// reads that follow, for a projection that reads rows from Postgres when
// a change says they changed. Postgres writes a transaction's commit
// record, which logical decoding may stream at once, before it makes the
// transaction visible to other sessions' snapshots: a read straight after
// the change can still see the row as it was, and the projection would
// keep that old row until the next change of it.
func WaitVisible(ctx context.Context, db interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}, cs []change.Change) error {
	var xids []int64
	seen := map[int64]bool{}
	for _, c := range cs {
		if c.Op == change.Read || c.Source.TxID <= 0 || seen[c.Source.TxID] {
			continue
		}
		seen[c.Source.TxID] = true
		xids = append(xids, c.Source.TxID)
	}
	if len(xids) == 0 {
		return nil
	}
	deadline := time.Now().Add(visibleWithin)
	for {
		var visible bool
		if err := db.QueryRow(ctx, visibleSQL, xids).Scan(&visible); err != nil {
			return fmt.Errorf("projections: wait for the changes' transactions: %w", err)
		}
		if visible {
			return nil
		}
		if time.Now().After(deadline) {
			return Unavailable(fmt.Errorf("projections: the transactions %v are not visible after %v", xids, visibleWithin))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Millisecond):
		}
	}
}
