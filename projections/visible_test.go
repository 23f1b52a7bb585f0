package projections_test

import (
	"context"
	"testing"
	"time"

	"agora/app/testenv"
	"agora/projections"
	"agora/projections/change"
)

// TestWaitVisibleWaitsForTheTransaction: a change's transaction that
// other sessions cannot see yet (here: not committed; in the race the
// fault tests found, committed and streamed but not yet visible) holds
// WaitVisible until it is; made-up and snapshot changes do not. The
// waiting session read once before the transaction began: Postgres then
// reuses that session's snapshot, whose xmax is older than the xid.
func TestWaitVisibleWaitsForTheTransaction(t *testing.T) {
	pool := testenv.New(t).DB.Pool
	ctx := t.Context()
	waiter, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer waiter.Release()
	if _, err := waiter.Exec(ctx, "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background()) //nolint:errcheck
	var xid int64
	// The 32-bit xid, as the relay and Debezium put it in source.txId.
	if err := tx.QueryRow(ctx, "SELECT txid_current() % 4294967296").Scan(&xid); err != nil {
		t.Fatal(err)
	}
	cs := []change.Change{
		{Op: change.Update, Source: change.Source{TxID: xid}},
		{Op: change.Create, Source: change.Source{TxID: 7}},
		{Op: change.Read, Source: change.Source{TxID: xid + 1000}},
	}
	done := make(chan error, 1)
	go func() { done <- projections.WaitVisible(ctx, waiter, cs) }()
	select {
	case err := <-done:
		t.Fatalf("WaitVisible returned (%v) while the transaction was in progress", err)
	case <-time.After(300 * time.Millisecond):
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("WaitVisible did not return once the transaction committed")
	}
	if err := projections.WaitVisible(ctx, pool, cs[1:]); err != nil {
		t.Fatalf("made-up and snapshot changes: %v", err)
	}
}
