// Package kafka is Agora's plumbing for the change stream's transport: the
// embedded Kafka-protocol broker that `agora dev` and the tests run in
// process (franz-go's kfake, persisted under the data folder), and the
// kafka-go clients that every producer and consumer uses, whether the broker
// is the embedded one or a real cluster named by KAFKA_BROKERS.
//
// Nothing outside this package knows which broker it talks to: the relay and
// the projection runner receive a list of broker addresses and speak the
// Kafka protocol through kafka-go, exactly as they would to Kafka.
package kafka

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	kafkago "github.com/segmentio/kafka-go"
)

// DefaultPartitions is how many partitions a change topic gets. Changes are
// keyed by primary key, so a row's changes stay in one partition and in
// order, and up to this many projector copies share a projection's work.
const DefaultPartitions = 8

// NewWriter returns a kafka-go writer tuned for the change stream:
//
//   - every message acknowledged by all in-sync replicas (RequireAll), so a
//     message the writer reports written survives a broker failure;
//   - partitioned with Murmur2 on the key, the partitioner of the Java
//     client that Kafka Connect (and so Debezium) uses, so the relay and
//     Debezium put a row's changes on the same partition;
//   - synchronous writes with a short linger (BatchTimeout): the relay
//     already batches, and kafka-go would otherwise hold a partial batch
//     for a whole second.
func NewWriter(brokers []string) *kafkago.Writer {
	return &kafkago.Writer{
		Addr:         kafkago.TCP(brokers...),
		Balancer:     &kafkago.Murmur2Balancer{},
		RequiredAcks: kafkago.RequireAll,
		BatchSize:    5000,
		BatchBytes:   16 << 20,
		BatchTimeout: time.Millisecond,
		MaxAttempts:  5,
		WriteTimeout: 10 * time.Second,
		ReadTimeout:  10 * time.Second,
		Transport:    transport,
	}
}

// Client returns a kafka-go admin client for brokers.
func Client(brokers []string) *kafkago.Client {
	return &kafkago.Client{Addr: kafkago.TCP(brokers...), Timeout: 10 * time.Second, Transport: transport}
}

// transport carries the requests of every client and writer made here.
var transport = &redialing{Transport: &kafkago.Transport{Dial: (&net.Dialer{Timeout: 3 * time.Second}).DialContext}}

// redialing is a kafka-go transport that drops its idle connections when a
// request fails on its connection. kafka-go keeps connections to a broker
// open between requests and hands an idle one out without a probe: after
// the broker restarted, each of them failed its next request (unexpected
// EOF), one request at a time, which kept the relay and the projector off a
// restarted broker for 15 s and more. Once they are dropped the next
// request dials afresh.
type redialing struct{ *kafkago.Transport }

func (t *redialing) RoundTrip(ctx context.Context, addr net.Addr, req kafkago.Request) (kafkago.Response, error) {
	res, err := t.Transport.RoundTrip(ctx, addr, req)
	var broker kafkago.Error
	if err != nil && !errors.As(err, &broker) {
		// Not the broker's answer (those come as a Kafka error code):
		// the connection, or the time, ran out.
		t.CloseIdleConnections()
	}
	return res, err
}

// EnsureTopics creates the topics that do not exist yet, each with
// partitions partitions and the broker's default replication factor. A topic
// that exists already is left as it is.
func EnsureTopics(ctx context.Context, brokers []string, partitions int, topics ...string) error {
	if len(topics) == 0 {
		return nil
	}
	if partitions < 1 {
		partitions = DefaultPartitions
	}
	req := &kafkago.CreateTopicsRequest{}
	for _, t := range topics {
		req.Topics = append(req.Topics, kafkago.TopicConfig{Topic: t, NumPartitions: partitions, ReplicationFactor: -1})
	}
	res, err := Client(brokers).CreateTopics(ctx, req)
	if err != nil {
		return fmt.Errorf("kafka: create topics: %w", err)
	}
	var errs []error
	for t, e := range res.Errors {
		if e != nil && !errors.Is(e, kafkago.TopicAlreadyExists) {
			errs = append(errs, fmt.Errorf("kafka: create topic %s: %w", t, e))
		}
	}
	return errors.Join(errs...)
}

// EndOffsets returns the next offset (high watermark) of every partition of
// topic.
func EndOffsets(ctx context.Context, brokers []string, topic string) (map[int]int64, error) {
	ranges, err := offsetRanges(ctx, brokers, topic)
	if err != nil {
		return nil, err
	}
	out := map[int]int64{}
	for p, r := range ranges {
		out[p] = r.LastOffset
	}
	return out, nil
}

// offsetRanges returns the first and the next offset of every partition of
// topic. A partition's error that a moment can mend is tried again, for a
// few seconds: kafka-go sends a request per partition to its leader and
// reports one whose connection failed as error -1 (Unknown) rather than as
// an error of the call, which the transport would have redialled for; so
// after a broker of three restarted, the first request to it failed that
// way, as did one sent to a leader that had just moved (Not Leader).
func offsetRanges(ctx context.Context, brokers []string, topic string) (map[int]kafkago.PartitionOffsets, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		out, failed, err := offsetRangesOnce(ctx, brokers, topic)
		var broker kafkago.Error
		if err == nil || !errors.As(failed, &broker) || (broker != kafkago.Unknown && !broker.Temporary()) || time.Now().After(deadline) {
			return out, err
		}
		transport.CloseIdleConnections()
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// offsetRangesOnce is one try of offsetRanges; failed is a partition's
// error, the one tried again.
func offsetRangesOnce(ctx context.Context, brokers []string, topic string) (out map[int]kafkago.PartitionOffsets, failed, err error) {
	c := Client(brokers)
	meta, err := c.Metadata(ctx, &kafkago.MetadataRequest{Topics: []string{topic}})
	if err != nil {
		return nil, nil, fmt.Errorf("kafka: metadata %s: %w", topic, err)
	}
	if len(meta.Topics) != 1 || meta.Topics[0].Error != nil {
		if len(meta.Topics) == 1 {
			return nil, nil, fmt.Errorf("kafka: metadata %s: %w", topic, meta.Topics[0].Error)
		}
		return nil, nil, fmt.Errorf("kafka: metadata %s: no such topic", topic)
	}
	var reqs []kafkago.OffsetRequest
	for _, p := range meta.Topics[0].Partitions {
		reqs = append(reqs, kafkago.FirstOffsetOf(p.ID), kafkago.LastOffsetOf(p.ID))
	}
	res, err := c.ListOffsets(ctx, &kafkago.ListOffsetsRequest{Topics: map[string][]kafkago.OffsetRequest{topic: reqs}})
	if err != nil {
		return nil, nil, fmt.Errorf("kafka: list offsets %s: %w", topic, err)
	}
	out = map[int]kafkago.PartitionOffsets{}
	for _, p := range res.Topics[topic] {
		if p.Error != nil {
			return nil, p.Error, fmt.Errorf("kafka: list offsets %s/%d: %w", topic, p.Partition, p.Error)
		}
		out[p.Partition] = p
	}
	return out, nil, nil
}

// CommittedOffsets returns the offset group has committed in every
// partition of topic, where it goes on reading; a partition it has
// committed nothing in yet is at its first offset.
func CommittedOffsets(ctx context.Context, brokers []string, group, topic string) (map[int]int64, error) {
	ranges, err := offsetRanges(ctx, brokers, topic)
	if err != nil {
		return nil, err
	}
	return committed(ctx, brokers, group, topic, ranges)
}

func committed(ctx context.Context, brokers []string, group, topic string, ranges map[int]kafkago.PartitionOffsets) (map[int]int64, error) {
	at, err := committedOrNone(ctx, brokers, group, topic, ranges)
	if err != nil {
		return nil, err
	}
	for p, r := range ranges {
		at[p] = max(at[p], r.FirstOffset)
	}
	return at, nil
}

// committedOrNone is the offset group has committed in every partition of
// ranges, -1 where it has committed nothing.
func committedOrNone(ctx context.Context, brokers []string, group, topic string, ranges map[int]kafkago.PartitionOffsets) (map[int]int64, error) {
	parts := make([]int, 0, len(ranges))
	out := map[int]int64{}
	for p := range ranges {
		parts = append(parts, p)
		out[p] = -1
	}
	res, err := Client(brokers).OffsetFetch(ctx, &kafkago.OffsetFetchRequest{GroupID: group, Topics: map[string][]int{topic: parts}})
	if err == nil {
		err = res.Error
	}
	if errors.Is(err, kafkago.GroupIdNotFound) {
		return out, nil // a group that never committed (the embedded broker says so; Kafka answers -1)
	}
	if err != nil {
		return nil, fmt.Errorf("kafka: committed offsets of %s on %s: %w", group, topic, err)
	}
	for _, p := range res.Topics[topic] {
		if p.Error != nil {
			return nil, fmt.Errorf("kafka: committed offsets of %s on %s/%d: %w", group, topic, p.Partition, p.Error)
		}
		if p.CommittedOffset >= 0 {
			out[p.Partition] = p.CommittedOffset
		}
	}
	return out, nil
}

// CommitFromTimeOfNew commits, for group, in every partition of topics that
// group has committed nothing in, the offset of the first message written
// at or after since (the end, when none was), so that a group that did not
// exist starts with what was written from then on rather than at the
// beginning of the topics. The time, not the end offsets when this runs,
// says where: a message written between since and the commit is still
// read. A group with live members refuses the commit: it has been reading
// already, and that is not an error here.
func CommitFromTimeOfNew(ctx context.Context, brokers []string, group string, since time.Time, topics ...string) error {
	commit := map[string][]kafkago.OffsetCommit{}
	for _, topic := range topics {
		ranges, err := offsetRanges(ctx, brokers, topic)
		if err != nil {
			return err
		}
		at, err := committedOrNone(ctx, brokers, group, topic, ranges)
		if err != nil {
			return err
		}
		var reqs []kafkago.OffsetRequest
		for p, r := range ranges {
			if at[p] < 0 && r.LastOffset > r.FirstOffset {
				reqs = append(reqs, kafkago.TimeOffsetOf(p, since))
			}
		}
		if len(reqs) == 0 {
			continue
		}
		res, err := Client(brokers).ListOffsets(ctx, &kafkago.ListOffsetsRequest{Topics: map[string][]kafkago.OffsetRequest{topic: reqs}})
		if err != nil {
			return fmt.Errorf("kafka: offsets of %s at %s: %w", topic, since.Format(time.RFC3339Nano), err)
		}
		for _, po := range res.Topics[topic] {
			if po.Error != nil {
				return fmt.Errorf("kafka: offsets of %s/%d at %s: %w", topic, po.Partition, since.Format(time.RFC3339Nano), po.Error)
			}
			// No message at or after since: the end, as the ranges read it.
			off := ranges[po.Partition].LastOffset
			for o := range po.Offsets {
				if o >= 0 {
					off = o
				}
			}
			commit[topic] = append(commit[topic], kafkago.OffsetCommit{Partition: po.Partition, Offset: off})
		}
	}
	if len(commit) == 0 {
		return nil
	}
	res, err := Client(brokers).OffsetCommit(ctx, &kafkago.OffsetCommitRequest{GroupID: group, GenerationID: -1, Topics: commit})
	if err != nil {
		return fmt.Errorf("kafka: commit the start offsets for %s: %w", group, err)
	}
	for _, ps := range res.Topics {
		for _, p := range ps {
			if p.Error != nil && !errors.Is(p.Error, kafkago.IllegalGeneration) && !errors.Is(p.Error, kafkago.UnknownMemberId) && !errors.Is(p.Error, kafkago.RebalanceInProgress) {
				return fmt.Errorf("kafka: commit the start offsets for %s: %w", group, p.Error)
			}
		}
	}
	return nil
}

// Lag returns, for every partition of topic, how many messages group has
// not committed yet: the end offset minus the committed one.
func Lag(ctx context.Context, brokers []string, group, topic string) (map[int]int64, error) {
	ranges, err := offsetRanges(ctx, brokers, topic)
	if err != nil {
		return nil, err
	}
	at, err := committed(ctx, brokers, group, topic, ranges)
	if err != nil {
		return nil, err
	}
	out := map[int]int64{}
	for p, r := range ranges {
		out[p] = max(0, r.LastOffset-at[p])
	}
	return out, nil
}
