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
	p, stop, err := Start(t.TempDir(), databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Log(err)
		}
	})
	return p
}

// Start starts an embedded broker (state in dir) and a relay for
// databaseURL on a slot of its own, and returns once the relay's snapshot
// is in the broker; stop stops both and drops the slot. A harness that
// shares one pipeline between the tests of a binary calls it itself.
func Start(dir, databaseURL string) (p *Pipeline, stop func() error, err error) {
	b, err := kafka.StartEmbedded(dir, kafka.EmbeddedOptions{Log: Logger()})
	if err != nil {
		return nil, nil, err
	}
	// A slot of its own: several pipelines may share a test database.
	slot := fmt.Sprintf("test_%d_%d", os.Getpid(), slots.Add(1))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = relay.Run(ctx, relay.Config{DatabaseURL: databaseURL, Brokers: b.Brokers(), Slot: slot, Log: Logger(), HeartbeatInterval: time.Second})
	}()
	stop = func() error {
		cancel()
		<-done
		b.Close()
		return dropSlot(databaseURL, slot)
	}
	// Changes made before the slot exists would be in the snapshot or
	// nowhere: wait for the snapshot, so a test's writes are streamed.
	if err := waitForSnapshot(databaseURL, slot); err != nil {
		_ = stop()
		return nil, nil, err
	}
	return &Pipeline{Brokers: b.Brokers(), Broker: b, Slot: slot}, stop, nil
}

// WaitForSnapshot waits until the relay of slot has delivered its initial
// snapshot.
func WaitForSnapshot(t testing.TB, databaseURL, slot string) {
	t.Helper()
	if err := waitForSnapshot(databaseURL, slot); err != nil {
		t.Fatal(err)
	}
}

func waitForSnapshot(databaseURL, slot string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	for {
		var done bool
		err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM cdc_relay_state WHERE slot_name = $1 AND snapshot_done_on IS NOT NULL)", slot).Scan(&done)
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("relay %s: no snapshot within a minute", slot)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// dropSlot removes a finished pipeline's slot: the test cluster has ten,
// and a slot nobody reads keeps its WAL forever. The walsender may hold
// the slot for a moment after the relay stops, so an active slot is
// retried.
func dropSlot(databaseURL, slot string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return fmt.Errorf("drop slot %s: %w", slot, err)
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
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("drop slot %s: still in use (%v)", slot, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
