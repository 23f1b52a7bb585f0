package projections_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	kafkago "github.com/segmentio/kafka-go"

	"agora/app/seed"
	"agora/app/testenv"
	"agora/internal/adapters/kafka"
	"agora/internal/plumbing/db/gen/model"
	"agora/projections"
	"agora/projections/change"
	"agora/projections/projectiontest"
)

// usersSeen is a test projection of the users table: the last change it
// applied per user, typed with jet's model.
type usersSeen struct {
	mu   sync.Mutex
	last map[string]change.Change
}

func (u *usersSeen) Name() string     { return "test_users_seen_" + fmt.Sprint(time.Now().UnixNano()) }
func (u *usersSeen) Tables() []string { return []string{"public.users"} }
func (u *usersSeen) Apply(_ context.Context, c change.Change) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	id, err := c.Key.UUID("id")
	if err != nil {
		return err
	}
	if prev, ok := u.last[id.String()]; ok && !prev.Position().Less(c.Position()) {
		return nil // not newer: a replay
	}
	u.last[id.String()] = c
	return nil
}

func (u *usersSeen) get(id string) (change.Change, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	c, ok := u.last[id]
	return c, ok
}

// TestWriteThroughTheAPIReachesAProjection changes a member's job title
// with PATCH /api/users/me and waits for the users projection to see the
// update, with the row before and after it, typed with the jet model.
func TestWriteThroughTheAPIReachesAProjection(t *testing.T) {
	env := testenv.New(t)
	p := projectiontest.StartPipeline(t, env.DBURL)
	h := &usersSeen{last: map[string]change.Change{}}
	runProjection(t, p.Brokers, h, projections.Config{})

	c := env.As(t, seed.MemberEmail)
	var me struct {
		ID string `json:"id"`
	}
	var decoded struct {
		User struct {
			ID string `json:"id"`
		} `json:"user"`
	}
	c.Do("GET", "/api/tokens/decode", nil).JSON(t, &decoded)
	me.ID = decoded.User.ID
	if me.ID == "" {
		t.Fatal("no user id")
	}
	title := testenv.Unique("Projected title")
	start := time.Now()
	if r := c.Do("PATCH", "/api/users/me", map[string]string{"jobTitle": title}); r.Status != http.StatusOK {
		t.Fatalf("PATCH /api/users/me: %d %s", r.Status, r.Body)
	}
	waitFor(t, 30*time.Second, "projection sees the new job title", func() (bool, string) {
		ch, ok := h.get(me.ID)
		if !ok {
			return false, "no change of the user yet"
		}
		var after model.Users
		if err := ch.After.Scan(&after); err != nil {
			return false, err.Error()
		}
		return after.JobTitle == title && ch.Op == change.Update, fmt.Sprintf("op %s jobTitle %q", ch.Op, after.JobTitle)
	})
	ch, _ := h.get(me.ID)
	var before, after model.Users
	if err := ch.Before.Scan(&before); err != nil {
		t.Fatal(err)
	}
	if err := ch.After.Scan(&after); err != nil {
		t.Fatal(err)
	}
	if before.JobTitle == title || before.Email != seed.MemberEmail || after.ID.String() != me.ID || after.UpdatedOn.IsZero() {
		t.Fatalf("before %+v after %+v", before, after)
	}
	t.Logf("API write to projection in %v", time.Since(start).Round(time.Millisecond))
}

// TestPoisonMessagesGoToTheDeadLetterTopic sends a message that is not a
// change event and a change the projection keeps failing on: both land on
// the dead-letter topic with their error, and the changes after them are
// applied.
func TestPoisonMessagesGoToTheDeadLetterTopic(t *testing.T) {
	env := testenv.New(t)
	p := projectiontest.StartPipeline(t, env.DBURL)
	src := sourceTable(t, env)
	h, err := projectiontest.NewCounting(t.Context(), env.DB.Pool, "poison_"+src, "public."+src)
	if err != nil {
		t.Fatal(err)
	}
	var attempts sync.Map
	h.Fail = func(c change.Change) error {
		if id, _ := c.Key.Int64("id"); id == 13 {
			n, _ := attempts.LoadOrStore(id, new(int))
			*n.(*int)++
			return fmt.Errorf("row 13 is cursed")
		}
		return nil
	}
	reg := prometheus.NewRegistry()
	metrics := projections.NewMetrics(reg)
	runProjection(t, p.Brokers, h, projections.Config{Backoff: 5 * time.Millisecond, MaxAttempts: 3, Metrics: metrics})
	ctx := t.Context()
	topic := "agora.public." + src
	if err := kafka.EnsureTopics(ctx, p.Brokers, 0, topic); err != nil {
		t.Fatal(err)
	}
	w := kafka.NewWriter(p.Brokers)
	defer w.Close()
	if err := w.WriteMessages(ctx, kafkago.Message{Topic: topic, Key: []byte(`{"id":999}`), Value: []byte(`{"op":"c","after":`)}); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 20; i++ {
		if _, err := env.DB.Pool.Exec(ctx, fmt.Sprintf("INSERT INTO %s VALUES ($1, 'v')", src), i); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, 30*time.Second, "the other 19 rows applied", func() (bool, string) {
		var n int
		if err := env.DB.Pool.QueryRow(ctx, "SELECT count(*) FROM "+h.Target()).Scan(&n); err != nil {
			return false, err.Error()
		}
		return n == 19, fmt.Sprintf("%d rows", n)
	})

	// The dead letters keep their keys, so their partitions: read them all.
	var letters []kafkago.Message
	ends, err := kafka.EndOffsets(ctx, p.Brokers, projections.DeadLetterTopic("agora", h.Name()))
	if err != nil {
		t.Fatal(err)
	}
	for part, end := range ends {
		if end == 0 {
			continue
		}
		r := kafkago.NewReader(kafkago.ReaderConfig{Brokers: p.Brokers, Topic: projections.DeadLetterTopic("agora", h.Name()), Partition: part, MinBytes: 1, MaxBytes: 1 << 20, MaxWait: 100 * time.Millisecond})
		for i := int64(0); i < end; i++ {
			rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			m, err := r.ReadMessage(rctx)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			letters = append(letters, m)
		}
		r.Close()
	}
	if len(letters) != 2 {
		t.Fatalf("%d dead letters, want 2", len(letters))
	}
	byKey := map[string]map[string]string{}
	for _, m := range letters {
		hs := map[string]string{}
		for _, hd := range m.Headers {
			hs[hd.Key] = string(hd.Value)
		}
		byKey[string(m.Key)] = hs
	}
	if e := byKey[`{"id":999}`][projections.HeaderError]; !strings.Contains(e, "malformed") || byKey[`{"id":999}`][projections.HeaderTopic] != topic {
		t.Errorf("poison message headers %v", byKey[`{"id":999}`])
	}
	if e := byKey[`{"id":13}`][projections.HeaderError]; !strings.Contains(e, "cursed") || byKey[`{"id":13}`][projections.HeaderAttempts] != "3" {
		t.Errorf("failing change headers %v", byKey[`{"id":13}`])
	}
	got := gather(t, reg)
	if v := got["agora_projection_dead_letters_total"]; v != 2 {
		t.Errorf("dead-letter metric %v, want 2", v)
	}
	if v := got["agora_projection_changes_total"]; v != 19 {
		t.Errorf("applied-changes metric %v, want 19", v)
	}
	if _, ok := got["agora_projection_apply_seconds"]; !ok {
		t.Error("no apply latency observed")
	}
	if _, ok := got["agora_projection_consumer_lag"]; !ok {
		t.Error("no consumer lag reported")
	}
	if n, _ := attempts.Load(int64(13)); n == nil || *n.(*int) < 3 {
		t.Errorf("row 13 tried %v times, want at least 3 (the batch, then 3 alone)", n)
	}
}

// gather sums each metric family of reg: counters and gauges by value,
// histograms by sample count.
func gather(t *testing.T, reg *prometheus.Registry) map[string]float64 {
	t.Helper()
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, f := range fams {
		for _, m := range f.GetMetric() {
			switch {
			case m.Counter != nil:
				out[f.GetName()] += m.Counter.GetValue()
			case m.Gauge != nil:
				out[f.GetName()] += m.Gauge.GetValue()
			case m.Histogram != nil:
				out[f.GetName()] += float64(m.Histogram.GetSampleCount())
			}
		}
	}
	return out
}
