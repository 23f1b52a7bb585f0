package projections

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	kafkago "github.com/segmentio/kafka-go"

	"agora/internal/adapters/kafka"
	"agora/relay"
)

// Checked is a Rebuilder that can list what its target holds, so that
// Check can compare the target with what a rebuild gives.
type Checked interface {
	Rebuilder
	// Records calls emit with the key and the content of every record the
	// target holds as its readers see it, once for each copy it holds: a
	// key emitted twice is held twice.
	Records(ctx context.Context, emit func(key, content string) error) error
}

// Report is what Check found of one projection's target, record by record,
// against a rebuild from Postgres.
type Report struct {
	Projection string
	// Records is how many records the rebuild gave.
	Records int
	// Missing are in the rebuild and not in the target; Doubled are in the
	// target more than once; Different are in both with other contents;
	// Extra are in the target and not in the rebuild.
	Missing, Doubled, Different, Extra int
	// Examples name a few of the differences.
	Examples []string
}

// Equal says the target is what a rebuild gives.
func (r Report) Equal() bool {
	return r.Missing == 0 && r.Doubled == 0 && r.Different == 0 && r.Extra == 0
}

func (r Report) String() string {
	s := fmt.Sprintf("%s: %d records, %d missing, %d doubled, %d different, %d extra",
		r.Projection, r.Records, r.Missing, r.Doubled, r.Different, r.Extra)
	if len(r.Examples) > 0 {
		s += " (" + strings.Join(r.Examples, "; ") + ")"
	}
	return s
}

// Scratch makes the projection over a fresh, temporary target of its own,
// and drop removes that target.
type Scratch func(ctx context.Context) (h Checked, drop func(context.Context) error, err error)

// examplesKept bounds Report.Examples.
const examplesKept = 5

// Check compares live's target with what a rebuild from a Postgres
// snapshot gives. It exports a snapshot, waits until live has applied
// every change committed before it, then makes a scratch target (the same
// projection over a fresh, temporary target: Scratch), fills it from the
// snapshot as Rebuild does (Reset, then every row as op r) and compares
// the two targets' Records. The projection's own code computes both
// sides: nothing here knows what a document or a fact is.
//
// A change committed after the snapshot that live has already applied
// shows as a difference, so check while writes pause (or check again).
func Check(ctx context.Context, cfg Config, o RebuildOptions, live Checked, scratch Scratch) (r Report, err error) {
	cfg.defaults()
	r.Projection = live.Name()
	exp, err := relay.ExportSnapshot(ctx, o.DatabaseURL)
	if err != nil {
		return r, err
	}
	defer exp.Close() //nolint:errcheck
	pool, err := relay.NewPool(ctx, o.DatabaseURL)
	if err != nil {
		return r, err
	}
	defer pool.Close()
	// Every change before the snapshot is in Kafka once the slot has
	// confirmed its position; live has it once its group has committed
	// the topics' ends as they are then. The scratch target is made after
	// that, as it may start from live's (notifications).
	if err := waitForSlot(ctx, pool, o.Slot, exp.LSN); err != nil {
		return r, err
	}
	if err := WaitApplied(ctx, cfg, live, 2*time.Minute); err != nil {
		return r, err
	}
	h, drop, err := scratch(ctx)
	if err != nil {
		return r, fmt.Errorf("projections: scratch target of %s: %w", live.Name(), err)
	}
	defer func() {
		if derr := drop(context.WithoutCancel(ctx)); err == nil && derr != nil {
			err = fmt.Errorf("projections: drop the scratch target of %s: %w", live.Name(), derr)
		}
	}()
	if _, err := fill(ctx, cfg, pool, exp, h); err != nil {
		return r, err
	}
	if s, ok := h.(Swapper); ok {
		if err := s.Swap(ctx); err != nil {
			return r, fmt.Errorf("projections: swap %s: %w", h.Name(), err)
		}
	}
	want, err := records(ctx, h)
	if err != nil {
		return r, err
	}
	got, err := records(ctx, live)
	if err != nil {
		return r, err
	}
	r.compare(want, got)
	return r, nil
}

// records are a target's records: the contents of each key's copies.
func records(ctx context.Context, h Checked) (map[string][]string, error) {
	out := map[string][]string{}
	err := h.Records(ctx, func(key, content string) error {
		out[key] = append(out[key], content)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("projections: records of %s: %w", h.Name(), err)
	}
	return out, nil
}

// compare counts the differences of got from want.
func (r *Report) compare(want, got map[string][]string) {
	note := func(format string, args ...any) {
		if len(r.Examples) < examplesKept {
			r.Examples = append(r.Examples, fmt.Sprintf(format, args...))
		}
	}
	keys := make([]string, 0, len(want)+len(got))
	for k := range want {
		keys = append(keys, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		w, g := want[k], got[k]
		if len(w) > 0 {
			r.Records++
		}
		switch {
		case len(g) == 0:
			r.Missing++
			note("missing %s", k)
		case len(w) == 0:
			r.Extra++
			note("extra %s: %s", k, g[0])
		case len(g) > 1:
			r.Doubled++
			note("%s held %d times", k, len(g))
		case g[0] != w[0]:
			r.Different++
			note("%s is %s, a rebuild gives %s", k, g[0], w[0])
		}
	}
}

// WaitApplied waits until the consumer group of h has committed every
// change its topics hold now: everything written to them so far is in
// h's target. It fails after within.
func WaitApplied(ctx context.Context, cfg Config, h Handler, within time.Duration) error {
	cfg.defaults()
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	end := map[string]map[int]int64{}
	req := &kafkago.OffsetFetchRequest{GroupID: GroupID(cfg.TopicPrefix, h.Name()), Topics: map[string][]int{}}
	for _, t := range Topics(cfg.TopicPrefix, h) {
		offs, err := kafka.EndOffsets(ctx, cfg.Brokers, t)
		if errors.Is(err, kafkago.UnknownTopicOrPartition) {
			continue // no change of that table was published: none to wait for
		}
		if err != nil {
			return fmt.Errorf("projections: end offsets of %s: %w", t, err)
		}
		end[t] = offs
		for p := range offs {
			req.Topics[t] = append(req.Topics[t], p)
		}
	}
	client := kafka.Client(cfg.Brokers)
	for {
		res, err := client.OffsetFetch(ctx, req)
		behind := 0
		if err == nil {
			for t, offs := range end {
				committed := map[int]int64{}
				for _, p := range res.Topics[t] {
					committed[p.Partition] = p.CommittedOffset
				}
				for p, hw := range offs {
					if hw > 0 && committed[p] < hw {
						behind++
					}
				}
			}
		}
		if err == nil && behind == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("projections: %s has not applied the changes before the check within %v (%d partitions behind, %v): is its projector running?", h.Name(), within, behind, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
