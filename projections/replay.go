package projections

import (
	"context"
	"fmt"
	"strconv"
	"time"

	kafkago "github.com/segmentio/kafka-go"

	"agora/internal/adapters/kafka"
)

// ReplayGroupID is the consumer group that remembers how far a
// projection's dead-letter topic has been replayed.
func ReplayGroupID(prefix, name string) string { return prefix + ".replay." + name }

// Replay applies again, through h, the dead letters of h written since the
// last replay (agora projector replay NAME), once whatever made them fail
// is fixed; it returns how many applied and how many failed again.
//
// It reads the dead-letter topic from the replay group's committed offsets
// to the end offsets it finds on starting, and commits after each batch,
// so a second replay does not apply the same letters twice. Each letter is
// applied as the runner applies a change, under its original topic,
// partition and offset: a target that is unavailable is waited for, and a
// letter that fails again is written back to the end of the dead-letter
// topic with its new error — the replay goes on past it, and the next
// replay tries it again. The projection's consumers may run meanwhile: a
// replayed change older than what the target holds changes nothing, as
// every projection is idempotent. Run one replay of a projection at a
// time.
func Replay(ctx context.Context, cfg Config, h Handler) (applied, failed int, err error) {
	cfg.defaults()
	topic := DeadLetterTopic(cfg.TopicPrefix, h.Name())
	group := ReplayGroupID(cfg.TopicPrefix, h.Name())
	if err := kafka.EnsureTopics(ctx, cfg.Brokers, cfg.Partitions, topic); err != nil {
		return 0, 0, err
	}
	end, err := kafka.EndOffsets(ctx, cfg.Brokers, topic)
	if err != nil {
		return 0, 0, err
	}
	from, err := kafka.CommittedOffsets(ctx, cfg.Brokers, group, topic)
	if err != nil {
		return 0, 0, err
	}
	w := kafka.NewWriter(cfg.Brokers)
	defer w.Close()
	c := newConsumer(cfg, h, w)
	for p, e := range end {
		if from[p] >= e {
			continue
		}
		a, f, err := c.replayPartition(ctx, group, topic, p, from[p], e)
		applied, failed = applied+a, failed+f
		if err != nil {
			return applied, failed, err
		}
	}
	return applied, failed, nil
}

// replayPartition replays the letters in [from, end) of one partition of
// the dead-letter topic.
func (c *consumer) replayPartition(ctx context.Context, group, topic string, partition int, from, end int64) (applied, failed int, err error) {
	r := kafkago.NewReader(kafkago.ReaderConfig{Brokers: c.cfg.Brokers, Topic: topic, Partition: partition, MinBytes: 1, MaxBytes: 16 << 20, MaxWait: 200 * time.Millisecond})
	defer r.Close()
	if err := r.SetOffset(from); err != nil {
		return 0, 0, err
	}
	batch := make([]kafkago.Message, 0, c.cfg.MaxBatch)
	for next := from; next < end; {
		batch = batch[:0]
		for next < end && len(batch) < cap(batch) {
			rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			m, err := r.ReadMessage(rctx)
			cancel()
			if err != nil {
				return applied, failed, fmt.Errorf("projections: replay %s/%d: %w", topic, partition, err)
			}
			batch = append(batch, original(m))
			next = m.Offset + 1
		}
		f, err := c.process(ctx, batch)
		if err != nil {
			return applied, failed, err
		}
		applied, failed = applied+len(batch)-f, failed+f
		res, err := kafka.Client(c.cfg.Brokers).OffsetCommit(ctx, &kafkago.OffsetCommitRequest{
			GroupID: group, GenerationID: -1,
			Topics: map[string][]kafkago.OffsetCommit{topic: {{Partition: partition, Offset: next}}},
		})
		if err == nil {
			for _, ps := range res.Topics {
				for _, p := range ps {
					if p.Error != nil {
						err = p.Error
					}
				}
			}
		}
		if err != nil {
			return applied, failed, fmt.Errorf("projections: commit the replay of %s/%d: %w", topic, partition, err)
		}
	}
	return applied, failed, nil
}

// original is the message a dead letter was made from, as its headers say.
func original(letter kafkago.Message) kafkago.Message {
	m := kafkago.Message{Topic: letter.Topic, Partition: letter.Partition, Offset: letter.Offset, Key: letter.Key, Value: letter.Value, Time: letter.Time}
	for _, h := range letter.Headers {
		switch h.Key {
		case HeaderTopic:
			m.Topic = string(h.Value)
		case HeaderPartition:
			m.Partition, _ = strconv.Atoi(string(h.Value))
		case HeaderOffset:
			m.Offset, _ = strconv.ParseInt(string(h.Value), 10, 64)
		}
	}
	return m
}
