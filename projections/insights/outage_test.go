package insights_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	kafkago "github.com/segmentio/kafka-go"

	"agora/app/testenv"
	"agora/internal/adapters/kafka"
	"agora/projections"
)

// TestWarehouseOutageLosesNothing is issue 21's test: ClickHouse stopped
// for longer than the runner's old retry window (6 attempts from 100 ms:
// 3.1 s) under continuous writes. /readyz stays up and shows the
// projection retrying; afterwards nothing was dead-lettered but a poison
// change sent during the outage, and the warehouse equals what a rebuild
// from a snapshot gives (projections.Check, as agora projector check).
func TestWarehouseOutageLosesNothing(t *testing.T) {
	srv, conn := testenv.OwnWarehouse(t)
	// A pipeline of its own: the poison change would stay in the shared
	// one's topics, and every later test's projection, reading them from
	// the first offset, would retry it for seconds before dead-lettering.
	ins := testenv.NewInsightsOnPipeline(t, testenv.StartOwnPipeline(t), conn)
	// Back within half a second of the warehouse, and stalled early
	// enough to be seen.
	ins.Stop()
	ins.Runner.MaxBackoff, ins.Runner.StallAfter, ins.Runner.LagInterval = 500*time.Millisecond, 2*time.Second, 200*time.Millisecond
	ins.Run(t, ins.Projection)
	w := newOutageWorld(t, ins)

	stop := make(chan struct{})
	written := make(chan error, 1)
	go func() { written <- w.write(stop) }()
	time.Sleep(time.Second)

	stopped := time.Now()
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	t.Logf("warehouse stopped in %v", time.Since(stopped).Round(time.Millisecond))
	poison(t, ins)
	var states []string
	for time.Since(stopped) < 6*time.Second {
		states = append(states, readiness(t, ins))
		time.Sleep(500 * time.Millisecond)
	}
	if err := srv.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Logf("warehouse down for %v; /readyz said %v", time.Since(stopped).Round(time.Millisecond), states)
	if !slices.Contains(states, "200 retrying") || !slices.Contains(states, "200 stalled") {
		t.Errorf("/readyz did not show the projection retrying, then stalled, while ready")
	}
	time.Sleep(time.Second)
	close(stop)
	if err := <-written; err != nil {
		t.Fatal(err)
	}

	caught := time.Now()
	ins.WaitCaughtUp(t, ins.Projection, 90*time.Second)
	t.Logf("caught up %v after the writes ended", time.Since(caught).Round(time.Millisecond))
	if got := readiness(t, ins); got != "200 healthy" {
		t.Errorf("/readyz once caught up: %s", got)
	}
	ends, err := kafka.EndOffsets(t.Context(), ins.Pipeline.Brokers, projections.DeadLetterTopic("agora", ins.Projection.Name()))
	if err != nil {
		t.Fatal(err)
	}
	var letters int64
	for _, n := range ends {
		letters += n
	}
	if letters != 1 {
		t.Fatalf("%d dead letters, want 1: the poison change", letters)
	}
	w.wantDaily(t, conn, "after the outage")
	scratch := func(context.Context) (projections.Checked, func(context.Context) error, error) {
		c, _ := testenv.WarehouseOn(t, srv)
		return ins.Projection.Into(c), func(context.Context) error { return nil }, nil
	}
	r, err := projections.Check(t.Context(), ins.Runner, projections.RebuildOptions{DatabaseURL: ins.DBURL, Slot: ins.Pipeline.Slot}, ins.Projection, scratch)
	if err != nil {
		t.Fatal(err)
	}
	if t.Log(r); !r.Equal() || r.Records == 0 {
		t.Fatalf("the warehouse after the outage is not what a rebuild gives: %v", r)
	}
}

func newOutageWorld(t *testing.T, ins *testenv.Insights) *world {
	t.Helper()
	return newWorldOn(t, ins, "SELECT id FROM communities ORDER BY created_on LIMIT 1")
}

// write posts, comments on them, reacts and edits in w's forum until stop.
func (w *world) write(stop <-chan struct{}) error {
	db := w.ins.DB.Pool
	ctx := context.Background()
	var post uuid.UUID
	for i := 0; ; i++ {
		select {
		case <-stop:
			return nil
		case <-time.After(20 * time.Millisecond):
		}
		now := time.Now().UTC()
		id := uuid.Must(uuid.NewV7())
		var err error
		switch {
		case i%4 == 0 || post == uuid.Nil:
			post = id
			_, err = db.Exec(ctx, `INSERT INTO threads (id, channel_id, series_id, creator_id, raw, created_on, updated_on) VALUES ($1, $2, $3, $4, $5, $6, $6)`,
				id, w.main, w.series, w.member, fmt.Sprintf("Post %d: who has tried it?", i), now)
		case i%4 == 1:
			_, err = db.Exec(ctx, `INSERT INTO replies (id, thread_id, creator_id, raw, created_on, updated_on) VALUES ($1, $2, $3, $4, $5, $5)`,
				id, post, w.member, fmt.Sprintf("Comment %d. Where?", i), now)
		case i%4 == 2:
			_, err = db.Exec(ctx, `INSERT INTO reactions (id, thread_id, user_id, kind, created_on) VALUES ($1, $2, $3, 'liked', $4)`, id, post, w.member, now)
		default:
			_, err = db.Exec(ctx, `UPDATE threads SET raw = $2 WHERE id = $1`, post, fmt.Sprintf("Post edited at %d", i))
		}
		if err != nil {
			return err
		}
	}
}

// poison sends a change of a post whose id is no UUID: the projection
// can never read it.
func poison(t *testing.T, ins *testenv.Insights) {
	t.Helper()
	w := kafka.NewWriter(ins.Pipeline.Brokers)
	defer w.Close()
	value := `{"op":"c","ts_ms":1,"source":{"schema":"public","table":"threads","lsn":1,"ts_ms":1},"after":{"id":"not-a-uuid","series_id":"x"}}`
	if err := w.WriteMessages(t.Context(), kafkago.Message{Topic: "agora.public.threads", Key: []byte(`{"id":"not-a-uuid"}`), Value: []byte(value)}); err != nil {
		t.Fatal(err)
	}
}

// readiness is /readyz's status and the insights projection's state.
func readiness(t *testing.T, ins *testenv.Insights) string {
	t.Helper()
	r := ins.Client(t).Do("GET", "/readyz", nil)
	var body struct {
		Projections []struct {
			Projection, State string
		}
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("/readyz: %v: %s", err, r.Body)
	}
	for _, p := range body.Projections {
		if p.Projection == ins.Projection.Name() {
			if r.Status != http.StatusOK {
				t.Errorf("/readyz answered %d while the projection was %s: %s", r.Status, p.State, r.Body)
			}
			return fmt.Sprintf("%d %s", r.Status, p.State)
		}
	}
	t.Fatalf("/readyz does not show the insights projection: %s", r.Body)
	return ""
}
