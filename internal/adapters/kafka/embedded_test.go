package kafka_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	kafkago "github.com/segmentio/kafka-go"

	"agora/internal/adapters/kafka"
)

// TestEmbeddedBrokerPersists writes, consumes and commits, restarts the
// broker on its folder, and finds the messages, the partitions and the
// group's committed offsets again.
func TestEmbeddedBrokerPersists(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	b, err := kafka.StartEmbedded(dir, kafka.EmbeddedOptions{Partitions: 4})
	if err != nil {
		t.Fatal(err)
	}
	const topic = "agora.public.things"
	if err := kafka.EnsureTopics(ctx, b.Brokers(), 4, topic); err != nil {
		t.Fatal(err)
	}
	w := kafka.NewWriter(b.Brokers())
	var msgs []kafkago.Message
	for i := 0; i < 40; i++ {
		msgs = append(msgs, kafkago.Message{Topic: topic, Key: []byte(`{"id":` + strconv.Itoa(i) + `}`), Value: []byte(`{}`)})
	}
	if err := w.WriteMessages(ctx, msgs...); err != nil {
		t.Fatal(err)
	}
	w.Close()
	read := func(brokers []string, n int) {
		r := kafkago.NewReader(kafkago.ReaderConfig{Brokers: brokers, GroupID: "g", GroupTopics: []string{topic}, StartOffset: kafkago.FirstOffset,
			MinBytes: 1, MaxBytes: 1 << 20, MaxWait: 100 * time.Millisecond, SessionTimeout: 2 * time.Second})
		defer r.Close()
		for i := 0; i < n; i++ {
			m, err := r.FetchMessage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.CommitMessages(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	read(b.Brokers(), 40)
	b.Close()

	b, err = kafka.StartEmbedded(dir, kafka.EmbeddedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ends, err := kafka.EndOffsets(ctx, b.Brokers(), topic)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, e := range ends {
		total += e
	}
	if len(ends) != 4 || total != 40 {
		t.Fatalf("after a restart: %d partitions, %d messages; want 4 and 40", len(ends), total)
	}
	res, err := kafka.Client(b.Brokers()).OffsetFetch(ctx, &kafkago.OffsetFetchRequest{GroupID: "g", Topics: map[string][]int{topic: {0, 1, 2, 3}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Topics[topic] {
		if p.CommittedOffset != ends[p.Partition] {
			t.Errorf("partition %d: committed %d after a restart, want %d", p.Partition, p.CommittedOffset, ends[p.Partition])
		}
	}
}

// TestClientsRedialAfterBrokerRestart: connections a restarted broker left
// dead cost the clients one failed request, not one per connection.
func TestClientsRedialAfterBrokerRestart(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	b, err := kafka.StartEmbedded(dir, kafka.EmbeddedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	brokers := b.Brokers()
	const topic = "agora.public.things"
	// Requests at once leave as many connections idle in the pool.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			_ = kafka.EnsureTopics(ctx, brokers, 4, topic)
			_, _ = kafka.EndOffsets(ctx, brokers, topic)
		})
	}
	wg.Wait()
	b.Close()
	_, port, _ := net.SplitHostPort(brokers[0])
	n, _ := strconv.Atoi(port)
	b, err = kafka.StartEmbedded(dir, kafka.EmbeddedOptions{Port: n})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var failed []error
	for len(failed) < 5 {
		err := kafka.EnsureTopics(ctx, brokers, 4, topic)
		if err == nil {
			break
		}
		failed = append(failed, err)
	}
	if len(failed) > 1 {
		t.Fatalf("%d requests failed after the restart: %v", len(failed), failed)
	}
}

// TestHalfWrittenCommitHidesNoLaterOne: a commit the broker was writing
// when it died (a full disk, a kill) leaves half an entry at the end of its
// offsets log. A restarted broker reads up to it; the commits it takes
// afterwards must survive the next crash too, not sit behind the torn
// entry, where a later start would stop reading, and the group would go
// back to its offsets of before the first crash.
func TestHalfWrittenCommitHidesNoLaterOne(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	const topic = "agora.public.things"
	b, err := kafka.StartEmbedded(dir, kafka.EmbeddedOptions{Partitions: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := kafka.EnsureTopics(ctx, b.Brokers(), 1, topic); err != nil {
		t.Fatal(err)
	}
	w := kafka.NewWriter(b.Brokers())
	var msgs []kafkago.Message
	for i := range 20 {
		msgs = append(msgs, kafkago.Message{Topic: topic, Key: []byte(strconv.Itoa(i)), Value: []byte(`{}`)})
	}
	if err := w.WriteMessages(ctx, msgs...); err != nil {
		t.Fatal(err)
	}
	w.Close()
	consume := func(b *kafka.Embedded, n int) {
		r := kafkago.NewReader(kafkago.ReaderConfig{Brokers: b.Brokers(), GroupID: "g", GroupTopics: []string{topic}, StartOffset: kafkago.FirstOffset,
			MinBytes: 1, MaxBytes: 1 << 20, MaxWait: 100 * time.Millisecond, SessionTimeout: 2 * time.Second})
		defer r.Close()
		for range n {
			m, err := r.FetchMessage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.CommitMessages(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	committed := func(b *kafka.Embedded) int64 {
		res, err := kafka.Client(b.Brokers()).OffsetFetch(ctx, &kafkago.OffsetFetchRequest{GroupID: "g", Topics: map[string][]int{topic: {0}}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Topics[topic][0].CommittedOffset
	}
	consume(b, 5)
	b.Close()

	// The torn entry: a header announcing 200 bytes, and 12 of them.
	f, err := os.OpenFile(filepath.Join(dir, "groups.log"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(append([]byte{200, 0, 0, 0, 1, 2, 3, 4}, make([]byte, 12)...)); err != nil {
		t.Fatal(err)
	}
	f.Close()

	b, err = kafka.StartEmbedded(dir, kafka.EmbeddedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := committed(b); got != 5 {
		t.Fatalf("committed %d after the torn entry, want 5", got)
	}
	consume(b, 10)
	// What a kill -9 now would leave on disk: the files as they are.
	crashed := t.TempDir()
	if err := os.CopyFS(crashed, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	b.Close()

	b, err = kafka.StartEmbedded(crashed, kafka.EmbeddedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got := committed(b); got != 15 {
		t.Errorf("committed %d after the second crash, want 15: the commits after the torn entry were lost", got)
	}
}
