package faulttest

import (
	"context"
	"testing"
	"time"

	kafkago "github.com/segmentio/kafka-go"

	"agora/internal/adapters/kafka"
	"agora/projections"
)

var brokersByTest = map[string][]string{}

func brokersOf(t *testing.T) []string { return brokersByTest[t.Name()] }

// diagnose logs the source topic's end offsets and the group's committed
// offsets, to tell a stuck consumer from a lost message.
func diagnose(t *testing.T, brokers []string, table string) {
	if brokers == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	topic := "agora.public." + table
	ends, err := kafka.EndOffsets(ctx, brokers, topic)
	t.Logf("end offsets %v %v", ends, err)
	var parts []int
	for p := range ends {
		parts = append(parts, p)
	}
	res, err := kafka.Client(brokers).OffsetFetch(ctx, &kafkago.OffsetFetchRequest{
		GroupID: projections.GroupID("agora", "fault_"+table), Topics: map[string][]int{topic: parts},
	})
	if err != nil {
		t.Logf("offset fetch: %v", err)
		return
	}
	for _, p := range res.Topics[topic] {
		t.Logf("partition %d committed %d (end %d) %v", p.Partition, p.CommittedOffset, ends[p.Partition], p.Error)
	}
	// The group's members and what each was assigned: a member that owns
	// partitions nobody reads is a dead consumer the broker kept.
	group := projections.GroupID("agora", "fault_"+table)
	desc, err := kafka.Client(brokers).DescribeGroups(ctx, &kafkago.DescribeGroupsRequest{GroupIDs: []string{group}})
	if err != nil {
		t.Logf("describe group: %v", err)
		return
	}
	for _, g := range desc.Groups {
		t.Logf("group %s %s %v", g.GroupID, g.GroupState, g.Error)
		for _, m := range g.Members {
			var parts []int
			for _, a := range m.MemberAssignments.Topics {
				parts = append(parts, a.Partitions...)
			}
			t.Logf("member %s (%s) partitions %v", m.MemberID, m.ClientHost, parts)
		}
	}
}
