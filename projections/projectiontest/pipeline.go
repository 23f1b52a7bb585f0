package projectiontest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"agora/internal/adapters/kafka"
	"agora/relay"
)

// Pipeline is an embedded broker and a relay over a test database.
type Pipeline struct {
	Brokers []string
	Broker  *kafka.Embedded
	Slot    string
}

var slots atomic.Int64

// Logger is the log tests give the pipeline: warnings on stderr with -v,
// everything with AGORA_TEST_LOG=debug.
func Logger() *slog.Logger {
	if os.Getenv("AGORA_TEST_LOG") == "debug" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// StartPipeline starts an embedded broker (state in a temporary folder)
// and a relay for databaseURL, both stopped when the test ends.
func StartPipeline(t testing.TB, databaseURL string) *Pipeline {
	t.Helper()
	b, err := kafka.StartEmbedded(t.TempDir(), kafka.EmbeddedOptions{Log: Logger()})
	if err != nil {
		t.Fatal(err)
	}
	// A slot of its own: several pipelines may share a test database.
	slot := fmt.Sprintf("test_%d_%d", os.Getpid(), slots.Add(1))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = relay.Run(ctx, relay.Config{DatabaseURL: databaseURL, Brokers: b.Brokers(), Slot: slot, Log: Logger(), HeartbeatInterval: time.Second})
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		b.Close()
		dropSlot(t, databaseURL, slot)
	})
	// Changes made before the slot exists would be in the snapshot or
	// nowhere: wait for the snapshot, so a test's writes are streamed.
	WaitForSnapshot(t, databaseURL, slot)
	return &Pipeline{Brokers: b.Brokers(), Broker: b, Slot: slot}
}

// WaitForSnapshot waits until the relay of slot has delivered its initial
// snapshot.
func WaitForSnapshot(t testing.TB, databaseURL, slot string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for {
		var done bool
		err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM cdc_relay_state WHERE slot_name = $1 AND snapshot_done_on IS NOT NULL)", slot).Scan(&done)
		if err != nil {
			t.Fatal(err)
		}
		if done {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("relay %s: no snapshot within a minute", slot)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// dropSlot removes a finished pipeline's slot: the test cluster has ten,
// and a slot nobody reads keeps its WAL forever. The walsender may hold
// the slot for a moment after the relay stops, so an active slot is
// retried.
func dropSlot(t testing.TB, databaseURL, slot string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		t.Logf("drop slot %s: %v", slot, err)
		return
	}
	defer conn.Close(context.Background())
	for {
		_, err := conn.Exec(ctx, `SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots
			WHERE slot_name = $1 AND NOT active`, slot)
		var left bool
		if err == nil {
			err = conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_replication_slots WHERE slot_name = $1)", slot).Scan(&left)
		}
		if err == nil && !left {
			return
		}
		select {
		case <-ctx.Done():
			t.Logf("drop slot %s: still in use (%v)", slot, err)
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
}
