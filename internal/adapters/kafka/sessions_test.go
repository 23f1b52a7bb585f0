package kafka_test

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"testing"
	"time"

	kafkago "github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kmsg"

	"agora/internal/adapters/kafka"
)

// TestDeadJoinerLosesItsPartitions kills a consumer while its JoinGroup is
// parked in the join barrier, the way a projector killed a few seconds
// after it started dies. kfake then keeps that member in the group with no
// session timer half of the time (its JoinGroup response races the dead
// connection), the live leader hands it a share of the partitions, and,
// without the embedded broker's session reaper, nobody ever reads them.
// Several groups run at once so that the race is lost at least once.
func TestDeadJoinerLosesItsPartitions(t *testing.T) {
	t.Parallel()
	b, err := kafka.StartEmbedded(t.TempDir(), kafka.EmbeddedOptions{Partitions: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	for i := range 6 {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			deadJoiner(t, b.Brokers(), fmt.Sprintf("dead-joiner-%d", i))
		})
	}
}

func deadJoiner(t *testing.T, brokers []string, name string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	topic, group := "t."+name, "g."+name
	if err := kafka.EnsureTopics(ctx, brokers, 4, topic); err != nil {
		t.Fatal(err)
	}
	const session = 2 * time.Second
	r := kafkago.NewReader(kafkago.ReaderConfig{
		Brokers: brokers, GroupID: group, GroupTopics: []string{topic}, StartOffset: kafkago.FirstOffset,
		MinBytes: 1, MaxBytes: 1 << 20, MaxWait: 100 * time.Millisecond,
		SessionTimeout: session, RebalanceTimeout: session, HeartbeatInterval: session / 6,
	})
	defer r.Close()
	client := kafka.Client(brokers)
	describe := func() kafkago.DescribeGroupsResponseGroup {
		res, err := client.DescribeGroups(ctx, &kafkago.DescribeGroupsRequest{GroupIDs: []string{group}})
		if err != nil || len(res.Groups) != 1 {
			t.Fatalf("describe %s: %v %v", group, res, err)
		}
		return res.Groups[0]
	}
	waitFor := func(what string, ok func(g kafkago.DescribeGroupsResponseGroup) bool) {
		t.Helper()
		for {
			g := describe()
			if ok(g) {
				return
			}
			if ctx.Err() != nil {
				t.Fatalf("%s: group %s is %s with %d members", what, group, g.GroupState, len(g.Members))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	waitFor("the reader joins", func(g kafkago.DescribeGroupsResponseGroup) bool {
		return g.GroupState == "Stable" && len(g.Members) == 1
	})

	// A second consumer joins and is killed while its join is parked.
	conn, err := net.Dial("tcp", brokers[0])
	if err != nil {
		t.Fatal(err)
	}
	meta := kmsg.ConsumerMemberMetadata{Topics: []string{topic}}
	join := kmsg.NewPtrJoinGroupRequest()
	join.Version = 2
	join.Group = group
	join.SessionTimeoutMillis = int32(session / time.Millisecond)
	join.RebalanceTimeoutMillis = int32(session / time.Millisecond)
	join.ProtocolType = "consumer"
	join.Protocols = []kmsg.JoinGroupRequestProtocol{{Name: "range", Metadata: meta.AppendTo(nil)}}
	if _, err := conn.Write(kmsg.NewRequestFormatter(kmsg.FormatterClientID("doomed")).AppendRequest(nil, join, 1)); err != nil {
		t.Fatal(err)
	}
	waitFor("the second consumer joins", func(g kafkago.DescribeGroupsResponseGroup) bool {
		return g.GroupState == "PreparingRebalance" && len(g.Members) == 2
	})
	_ = conn.Close()
	waitFor("the group settles", func(g kafkago.DescribeGroupsResponseGroup) bool {
		if g.GroupState != "Stable" {
			return false
		}
		t.Logf("stable again with %d members", len(g.Members))
		return true
	})

	// Whatever kfake did with the dead member, every partition must be
	// read: write one message to each and fetch them all.
	w := kafka.NewWriter(brokers)
	defer w.Close()
	var msgs []kafkago.Message
	for p := range 4 {
		msgs = append(msgs, kafkago.Message{Topic: topic, Key: []byte(strconv.Itoa(p)), Value: []byte("v")})
	}
	w.Balancer = &kafkago.RoundRobin{}
	if err := w.WriteMessages(ctx, msgs...); err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	fetch, cancelFetch := context.WithTimeout(ctx, 30*time.Second)
	defer cancelFetch()
	for len(seen) < 4 {
		m, err := r.FetchMessage(fetch)
		if err != nil {
			g := describe()
			t.Fatalf("read partitions %v of 4: %v; group %s has %d members", seen, err, g.GroupState, len(g.Members))
		}
		seen[m.Partition] = true
	}
}
