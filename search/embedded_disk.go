package search

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
)

// write applies a batch: searchable when it returns, on disk once the
// persister has written it (see scorchConfig).
func (bi *bleveIndex) write(b *bleve.Batch) error {
	done := make(chan error, 1)
	bi.pmu.Lock()
	id := bi.batches
	bi.batches++
	bi.unpersisted[id] = done
	bi.pmu.Unlock()
	var once sync.Once
	b.SetPersistedCallback(func(err error) {
		once.Do(func() {
			bi.pmu.Lock()
			delete(bi.unpersisted, id)
			bi.pmu.Unlock()
			done <- err
			close(done)
		})
	})
	if err := bi.idx.Batch(b); err != nil {
		// A batch that failed was not introduced: nothing will persist it.
		bi.pmu.Lock()
		delete(bi.unpersisted, id)
		bi.pmu.Unlock()
		return err
	}
	return nil
}

// persisted waits until every batch written before the call is on disk,
// and reports the first that could not be written.
func (bi *bleveIndex) persisted(ctx context.Context) error {
	bi.pmu.Lock()
	waits := make([]chan error, 0, len(bi.unpersisted))
	for _, ch := range bi.unpersisted {
		waits = append(waits, ch)
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
func scorchConfig() map[string]any {
	return map[string]any{"bolt_timeout": lockWait.String()}
}

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
