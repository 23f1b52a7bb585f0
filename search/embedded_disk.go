package search

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/blevesearch/bleve/v2"
)

// pending is a batch that is searchable and not yet on disk: finish
// sends done the persister's error, once, and forgets the batch.
type pending struct {
	done   chan error
	finish func(error)
}

// write applies a batch: searchable when it returns, on disk once the
// persister has written it (see scorchConfig).
func (bi *bleveIndex) write(b *bleve.Batch) error {
	done := make(chan error, 1)
	var once sync.Once
	bi.pmu.Lock()
	id := bi.batches
	bi.batches++
	finish := func(err error) {
		once.Do(func() {
			bi.pmu.Lock()
			delete(bi.unpersisted, id)
			bi.pmu.Unlock()
			done <- err
			close(done)
		})
	}
	bi.unpersisted[id] = pending{done: done, finish: finish}
	bi.pmu.Unlock()
	b.SetPersistedCallback(finish)
	if err := bi.idx.Batch(b); err != nil {
		// A batch that failed is not the persister's to finish.
		finish(err)
		err = diskFull(err)
		if errors.Is(err, ErrUnavailable) {
			bi.broken.Store(true)
		}
		return err
	}
	return nil
}

// reopen opens the index again from its files after a write that the disk
// refused. Bleve's scorch does not survive one: its persister closes a
// segment that the index still holds, and the next batch panics on it
// (TestEmbeddedFullDisk). The files hold every batch acknowledged, as a
// batch returns once it is on disk.
func (bi *bleveIndex) reopen() error {
	bi.mu.Lock()
	defer bi.mu.Unlock()
	if !bi.broken.Load() {
		return nil // reopened by another write meanwhile
	}
	if bi.idx != nil {
		_ = bi.idx.Close()
		bi.idx = nil
	}
	// The batches the closed index did not persist never will be.
	bi.pmu.Lock()
	stale := slices.Collect(maps.Values(bi.unpersisted))
	bi.pmu.Unlock()
	for _, p := range stale {
		p.finish(errors.New("search: the index was reopened before this batch was on disk"))
	}
	idx, err := bleve.OpenUsing(bi.path, scorchConfig())
	if err != nil {
		return fmt.Errorf("search: reopen %s: %w", bi.path, err)
	}
	l, vectors := layoutOf(idx), newVectorSet()
	if l.vectors {
		if vectors, err = loadVectors(idx); err != nil {
			_ = idx.Close()
			return fmt.Errorf("search: reopen %s: vectors: %w", bi.path, err)
		}
	}
	bi.idx, bi.layout, bi.vectors = idx, l, vectors
	bi.broken.Store(false)
	return nil
}

// diskFull marks err with ErrUnavailable when it says the disk is full, so
// that the search projection waits for space rather than dead-letter its
// changes. Bleve's persister formats the error of its write with %v
// ("segment: … persist err: %v"), which drops the error and keeps its
// text: the errno's text is all there is to go by.
func diskFull(err error) error {
	if errors.Is(err, syscall.ENOSPC) || strings.Contains(err.Error(), syscall.ENOSPC.Error()) {
		return fmt.Errorf("%w (the index's disk is full): %w", ErrUnavailable, err)
	}
	return err
}

// persisted waits until every batch written before the call is on disk,
// and reports the first that could not be written.
func (bi *bleveIndex) persisted(ctx context.Context) error {
	bi.pmu.Lock()
	waits := make([]chan error, 0, len(bi.unpersisted))
	for _, p := range bi.unpersisted {
		waits = append(waits, p.done)
	}
	bi.pmu.Unlock()
	var errs []error
	for _, ch := range waits {
		select {
		case err := <-ch:
			errs = append(errs, err)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return errors.Join(errs...)
}

// scorchConfig is how the embedded engine runs Bleve's scorch, given at
// every open (Bleve keeps the config of an index's creation too).
//
// Batches are safe (Bleve's default): a batch returns once it is
// searchable and its segment is on disk. unsafe_batch (returning before
// the disk, the persister writing behind) loaded a million posts faster,
// but a CI run with it once left a new post unindexed for over 30 s, for
// a reason not found; safe batches are what every earlier run used. Wait
// still waits for each batch's persisted callback, so its contract holds
// in either mode.
//
// bolt_timeout: an index is one process's (its root file is locked); a
// second process gives up after lockWait instead of waiting for ever.
//
// scorchMergePlanOptions: Bleve's merge planner reads every segment under
// FloorSegmentSize documents (2,000 by default) as that size, so for an
// index smaller than that all segments look alike, and since it favours
// merges that reclaim deleted documents, it merged the whole index (whose
// large segment holds the deletions of every upsert) with each few new
// one-post segments: under a crowd of 800 members writing ten posts a
// second, the merges took a fifth of the two cores, 25 times what
// indexing took. A floor of 100 lets it merge the small segments among
// themselves and reach the large one only as tiers fill.
func scorchConfig() map[string]any {
	return map[string]any{
		"bolt_timeout":           lockWait.String(),
		"scorchMergePlanOptions": map[string]any{"FloorSegmentSize": mergeFloor},
	}
}

// mergeFloor is the merge planner's FloorSegmentSize (see scorchConfig).
const mergeFloor = 100

// lockWait is how long opening an index waits for another process to let
// go of it: long enough for a restart, short enough to say why.
const lockWait = 3 * time.Second

// persistedBefore waits for the unpersisted batches at most d: Bleve's Close
// does not write them.
func (bi *bleveIndex) persistedBefore(d time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return bi.persisted(ctx)
}

// EmbeddedState is what Settle reports of one embedded index.
type EmbeddedState struct {
	// Segments is the number of segments a search visits.
	Segments int
	// DiskBytes is the size of the index's files.
	DiskBytes int64
}

// Settle waits until the embedded engine has persisted every write and its
// background merging has nothing left to do, and reports each index's state
// by name ("members", "posts"…). After a bulk load the engine goes on
// merging small segments into large ones for a while; a benchmark settles
// first to measure the index a running server has. For another store it
// returns at once, with no states.
func Settle(ctx context.Context, s Store) (map[string]EmbeddedState, error) {
	e, ok := s.(*embedded)
	if !ok {
		return nil, nil
	}
	out := map[string]EmbeddedState{}
	for name, bi := range e.indexes {
		var st EmbeddedState
		err := bi.read(func(bi *bleveIndex) (err error) {
			st, err = bi.settle(ctx)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("search: settle %s: %w", name, err)
		}
		out[name] = st
	}
	return out, nil
}

// settle polls the index's statistics until, for a second, nothing is left
// in memory, no merge runs and the root snapshot stays the same.
func (bi *bleveIndex) settle(ctx context.Context) (EmbeddedState, error) {
	var st EmbeddedState
	var lastEpoch uint64
	for quiet := 0; quiet < 5; {
		m, _ := bi.idx.StatsMap()["index"].(map[string]any)
		n := func(k string) uint64 { v, _ := m[k].(uint64); return v }
		epoch := n("CurRootEpoch")
		if n("TotMemorySegmentsAtRoot") == 0 && n("TotFileMergeZapBeg") == n("TotFileMergeZapEnd") && epoch == lastEpoch {
			quiet++
		} else {
			quiet = 0
		}
		lastEpoch = epoch
		st = EmbeddedState{Segments: int(n("TotFileSegmentsAtRoot") + n("TotMemorySegmentsAtRoot")), DiskBytes: int64(n("CurOnDiskBytes"))}
		select {
		case <-ctx.Done():
			return st, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return st, nil
}
