package app_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// TestDebeziumReplaysKeepTheirSequence kills Kafka Connect (kill -9) under
// writes: Debezium, started again, writes what it had not flushed offsets
// for once more, and every replayed record carries the source.sequence it
// had, so change.Position, which projections compare to drop replays,
// takes it for the same change. (The relay keeps it the same way: it
// confirms only commit ends, which it takes back as the last commit.)
func TestDebeziumReplaysKeepTheirSequence(t *testing.T) {
	// The topology first: its start has a timeout of its own, not this
	// test's.
	top := sharedDebezium(t)
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	db, engines := top.db, top.engines
	// A table of its own, new to the running connector: its first row is
	// streamed, and its topic holds only this test's records.
	table := ownTable("replay_marker")
	if _, err := db.Exec(ctx, `CREATE TABLE `+table+` (id bigint PRIMARY KEY); INSERT INTO `+table+` VALUES (0)`); err != nil {
		t.Fatal(err)
	}
	tables := []string{table}
	brokers := engines.Kafka.Brokers()
	waitForMessages(t, ctx, brokers, "agora", tables, 1, engines.Connect.LogFile())
	n := 0
	write := func(d time.Duration) {
		for end := time.Now().Add(d); time.Now().Before(end); {
			n++
			if _, err := db.Exec(ctx, "INSERT INTO "+table+" VALUES ($1)", n); err != nil {
				t.Fatal(err)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	write(2500 * time.Millisecond)
	if err := engines.Connect.Kill(); err != nil {
		t.Fatal(err)
	}
	write(3 * time.Second)
	waitForMessages(t, ctx, brokers, "agora", tables, int64(n+1), engines.Connect.LogFile())
	first := map[string]string{}
	replayed := 0
	for _, m := range readStream(t, ctx, brokers, "agora", tables, engines.Connect.LogFile()) {
		var v struct {
			Source struct {
				Sequence string `json:"sequence"`
			} `json:"source"`
		}
		if err := json.Unmarshal(m.value, &v); err != nil {
			t.Fatal(err)
		}
		k := string(m.key)
		seq, ok := first[k]
		if !ok {
			first[k] = v.Source.Sequence
			continue
		}
		replayed++
		if seq != v.Source.Sequence {
			t.Errorf("key %s: written with sequence %s, replayed with %s", k, seq, v.Source.Sequence)
		}
	}
	if replayed == 0 {
		t.Fatal("Debezium replayed nothing after the kill: nothing to compare")
	}
	t.Logf("%d writes; %d records replayed after the kill, each with its sequence", n, replayed)
}
