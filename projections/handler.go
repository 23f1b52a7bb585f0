package projections

import (
	"context"
	"time"

	"agora/projections/change"
)

// Handler is a projection. The runner calls Apply (or ApplyBatch) from one
// goroutine per projection, in partition order: a row's changes arrive in
// the order they were committed, but changes of different rows may
// interleave across partitions.
type Handler interface {
	// Name names the projection in its consumer group
	// (<prefix>.projection.<name>), its dead-letter topic
	// (<prefix>.dlq.<name>), metrics and logs. It must not change, or the
	// projection starts again from the beginning of the stream.
	Name() string
	// Tables are the tables the projection reacts to, as "schema.table"
	// ("public.users").
	Tables() []string
	// Apply brings the target up to date with one change. It must be
	// idempotent: the same change may come again after a crash or a
	// rebalance, and an older change may follow a snapshot read of the
	// same row; compare change.Position with what the target holds. An
	// error makes the runner retry with backoff, then dead-letter the
	// change; wrap an error with Permanent to dead-letter it at once, and
	// one saying the target is down with Unavailable (IsUnavailable knows
	// the network's and Postgres's own) to retry it until the target is
	// back.
	Apply(ctx context.Context, c change.Change) error
}

// BatchHandler is a Handler that applies several changes at once (in one
// transaction, say), in the order given. When ApplyBatch fails, the runner
// falls back to Apply, one change at a time, to find the one that fails.
type BatchHandler interface {
	Handler
	ApplyBatch(ctx context.Context, cs []change.Change) error
}

// FromTime is a Handler whose consumer group, when it is new, starts with
// the changes recorded from StartAt on rather than at the topics'
// beginning: what happened before concerns no one (a node's live events,
// whose group is the node's, from a moment before the node started). The
// offsets are committed before the reader joins, by the messages' time, so
// that a change written while the runner starts is still applied.
type FromTime interface {
	Handler
	StartAt() time.Time
}

// Rebuilder is a Handler that can be rebuilt from a snapshot (agora
// projector rebuild NAME). Reset makes a fresh, empty target that the
// snapshot's op r changes are then applied to.
type Rebuilder interface {
	Handler
	Reset(ctx context.Context) error
}

// Swapper is a Rebuilder that builds its fresh target beside the live one
// (from Reset on) and swaps it in once the snapshot is applied.
type Swapper interface {
	Rebuilder
	Swap(ctx context.Context) error
}

// Scheduled is a Handler with work of its own on a clock (the delivery
// projection's digests and retries): Run runs its Schedule beside its
// consumer until the context ends. Several projectors may run it at once,
// so the work must be safe to do twice.
type Scheduled interface {
	Handler
	Schedule(ctx context.Context)
}
