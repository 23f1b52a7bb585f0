package kafka

import (
	"context"
	"log/slog"
	"sync"
	"time"

	kafkago "github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// sessionReaper enforces the consumer-group session timeout that kfake
// fails to enforce in one case, so that a consumer killed at the wrong
// moment does not keep its partitions for ever.
//
// The kfake bug (classic groups, franz-go kfake 2026-09, groups.go): a
// member that joins with no member ID (kafka-go's JoinGroup v1/v2) is added
// to the join barrier without a session timer; the timer is started only
// when its JoinGroup response has been handed to its connection
// (group.reply -> updateHeartbeat). If the consumer dies while its
// JoinGroup is parked — which is exactly when a projector is killed a few
// seconds after it started, since the join waits for the killed
// predecessor's session to expire — the reply is raced in a select against
// the dead connection's done channel: half of the time it "fails", the
// member stays in the group with no timer, the surviving leader assigns it
// its share of the partitions, the group turns Stable, and nothing ever
// removes it. The survivor heartbeats happily in that generation and
// consumes only its own share; the dead member's partitions are never read
// again (the fault test saw a projector consume 2 partitions of 8 for 90 s).
// Kafka itself starts every member's heartbeat deadline when the join
// completes, delivered or not (and times out new members, KAFKA-7610).
//
// The reaper watches the group requests that carry a member ID (JoinGroup,
// SyncGroup, Heartbeat, OffsetCommit) through a kfake control function that
// only observes, and every second describes the groups: a member of a group
// that has been Stable for longer than the group's session timeout (plus a
// margin) and that has sent nothing in that time is dead by the definition
// of the session timeout, so the reaper removes it with a LeaveGroup on its
// behalf, which makes the live members rejoin and take its partitions. A
// group that is rebalancing is left alone: its members are parked in
// JoinGroup or SyncGroup and send nothing, legitimately.
type sessionReaper struct {
	log *slog.Logger

	mu sync.Mutex
	// seen is when a request carrying the member ID last arrived, or when
	// the reaper first saw the member in a described group.
	seen map[groupMember]time.Time
	// session is the longest session timeout a JoinGroup of the group
	// asked for; a group whose joins the reaper never saw is left alone.
	session map[string]time.Duration
	// stableSince is when the reaper first saw the group Stable since it
	// last saw it in any other state.
	stableSince map[string]time.Time
}

type groupMember struct{ group, member string }

// reapInterval is how often the reaper describes the groups.
const reapInterval = time.Second

func newSessionReaper(log *slog.Logger) *sessionReaper {
	return &sessionReaper{
		log:         log,
		seen:        map[groupMember]time.Time{},
		session:     map[string]time.Duration{},
		stableSince: map[string]time.Time{},
	}
}

// install registers the observing control functions on c. They never
// handle a request, so kfake keeps them and processes every request itself.
func (s *sessionReaper) install(c *kfake.Cluster) {
	for _, key := range []kmsg.Key{kmsg.JoinGroup, kmsg.SyncGroup, kmsg.Heartbeat, kmsg.OffsetCommit} {
		c.ControlKey(int16(key), func(req kmsg.Request) (kmsg.Response, error, bool) {
			s.observe(req, time.Now())
			return nil, nil, false
		})
	}
}

func (s *sessionReaper) observe(req kmsg.Request, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	touch := func(group, member string) {
		if member != "" {
			s.seen[groupMember{group, member}] = now
		}
	}
	switch r := req.(type) {
	case *kmsg.JoinGroupRequest:
		if d := time.Duration(r.SessionTimeoutMillis) * time.Millisecond; d > s.session[r.Group] {
			s.session[r.Group] = d
		}
		touch(r.Group, r.MemberID)
	case *kmsg.SyncGroupRequest:
		touch(r.Group, r.MemberID)
	case *kmsg.HeartbeatRequest:
		touch(r.Group, r.MemberID)
	case *kmsg.OffsetCommitRequest:
		touch(r.Group, r.MemberID)
	}
}

// run sweeps the groups every reapInterval until ctx ends.
func (s *sessionReaper) run(ctx context.Context, brokers []string) {
	client := Client(brokers)
	client.Timeout = 5 * time.Second
	t := time.NewTicker(reapInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := s.sweep(ctx, client); err != nil && ctx.Err() == nil {
			s.log.Debug("kafka broker: group session sweep failed", "err", err)
		}
	}
}

// sweep describes the groups and removes the members whose session has
// expired without kfake noticing.
func (s *sessionReaper) sweep(ctx context.Context, client *kafkago.Client) error {
	list, err := client.ListGroups(ctx, &kafkago.ListGroupsRequest{})
	if err != nil {
		return err
	}
	s.mu.Lock()
	var ids []string
	for _, g := range list.Groups {
		if g.ProtocolType == "consumer" && s.session[g.GroupID] > 0 {
			ids = append(ids, g.GroupID)
		}
	}
	s.mu.Unlock()
	if len(ids) == 0 {
		return nil
	}
	desc, err := client.DescribeGroups(ctx, &kafkago.DescribeGroupsRequest{GroupIDs: ids})
	if err != nil {
		return err
	}
	now := time.Now()
	dead := map[string][]string{}
	s.mu.Lock()
	for _, g := range desc.Groups {
		if g.Error != nil {
			continue
		}
		if g.GroupState != "Stable" {
			delete(s.stableSince, g.GroupID)
			continue
		}
		since, ok := s.stableSince[g.GroupID]
		if !ok {
			since = now
			s.stableSince[g.GroupID] = now
		}
		session := s.session[g.GroupID]
		limit := session + max(session/2, time.Second)
		present := map[string]bool{}
		for _, m := range g.Members {
			present[m.MemberID] = true
			key := groupMember{g.GroupID, m.MemberID}
			last, ok := s.seen[key]
			if !ok {
				last = now
				s.seen[key] = now
			}
			if now.Sub(since) > limit && now.Sub(last) > limit {
				dead[g.GroupID] = append(dead[g.GroupID], m.MemberID)
			}
		}
		for key, last := range s.seen {
			if key.group == g.GroupID && !present[key.member] && now.Sub(last) > limit {
				delete(s.seen, key)
			}
		}
	}
	s.mu.Unlock()
	for group, members := range dead {
		req := &kafkago.LeaveGroupRequest{GroupID: group}
		for _, m := range members {
			req.Members = append(req.Members, kafkago.LeaveGroupRequestMember{ID: m})
		}
		s.log.Warn("kafka broker: removing consumer-group members whose session expired", "group", group, "members", members)
		if _, err := client.LeaveGroup(ctx, req); err != nil {
			return err
		}
		s.mu.Lock()
		for _, m := range members {
			delete(s.seen, groupMember{group, m})
		}
		s.mu.Unlock()
	}
	return nil
}
