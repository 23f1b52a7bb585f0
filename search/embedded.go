package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	bolterrors "go.etcd.io/bbolt/errors"
)

// The embedded engine keeps each index in its own Bleve index (scorch, on
// disk) under the folder given to OpenEmbedded. Bleve answers in process in
// about a millisecond, writes are searchable when Batch returns, and BM25
// scoring matches what people expect of a search box.
//
// layoutVersion is part of each index's folder name: a change of mapping
// that the queries cannot serve bumps it, and the projection rebuilds into
// the new folder rather than reading an index built with another mapping.
// A change they can serve keeps it: the prefix fields (pre_) came later,
// and an index without them has its prefixes expanded as before, until a
// Rebuild recreates it with the current mapping.
const layoutVersion = "v1"

type embedded struct {
	dir     string
	indexes map[string]*bleveIndex
}

type bleveIndex struct {
	// mu is held for reading by every operation and for writing by Rebuild
	// and Close, which replace or drop idx.
	mu   sync.RWMutex
	idx  bleve.Index
	path string
	// m is the current mapping, which a new or rebuilt index gets.
	m *mapping.IndexMappingImpl
	layout
	// vectors are the documents' vectors (see embedded_vectors.go); an
	// index whose layout has no vector field keeps none.
	vectors *vectorSet

	// broken is set when the disk refused a write, after which Bleve's
	// state in memory cannot be trusted (see reopen).
	broken atomic.Bool

	// unpersisted holds each batch that is searchable but not yet on
	// disk; Bleve's persisted callback finishes it.
	pmu         sync.Mutex
	unpersisted map[uint64]pending
	batches     uint64
}

// OpenEmbedded opens (or creates) the embedded search store in dir.
func OpenEmbedded(dir string) (Store, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("search: embedded folder: %w", err)
	}
	e := &embedded{dir: dir, indexes: map[string]*bleveIndex{}}
	for _, s := range []*schema{memberSchema, hashtagSchema, postSchema, peerSchema} {
		bi, err := openBleve(filepath.Join(dir, s.name+"-"+layoutVersion+".bleve"), s)
		if err != nil {
			_ = e.Close()
			return nil, err
		}
		e.indexes[s.name] = bi
	}
	return e, nil
}

func openBleve(path string, s *schema) (*bleveIndex, error) {
	m, err := bleveMapping(s)
	if err != nil {
		return nil, err
	}
	idx, err := bleve.OpenUsing(path, scorchConfig())
	if errors.Is(err, bleve.ErrorIndexPathDoesNotExist) {
		idx, err = newBleve(path, m)
	}
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("search: open %s: another process has it open (give processes that run apart a shared engine with MEILI_URL): %w", path, err)
	}
	if err != nil {
		return nil, fmt.Errorf("search: open %s: %w", path, err)
	}
	bi := &bleveIndex{idx: idx, path: path, m: m, layout: layoutOf(idx), vectors: newVectorSet(), unpersisted: map[uint64]pending{}}
	if bi.layout.vectors {
		if bi.vectors, err = loadVectors(idx); err != nil {
			_ = idx.Close()
			return nil, fmt.Errorf("search: open %s: vectors: %w", path, err)
		}
	}
	return bi, nil
}

// newBleve creates an index with the mapping, then opens it again with
// scorchConfig, which bleve.New does not take.
func newBleve(path string, m mapping.IndexMapping) (bleve.Index, error) {
	idx, err := bleve.New(path, m)
	if err != nil {
		return nil, err
	}
	if err := idx.Close(); err != nil {
		return nil, err
	}
	return bleve.OpenUsing(path, scorchConfig())
}

func (e *embedded) Members() Index[Member]   { return index[Member]{memberSchema, e} }
func (e *embedded) Hashtags() Index[Hashtag] { return index[Hashtag]{hashtagSchema, e} }
func (e *embedded) Posts() Index[Post]       { return index[Post]{postSchema, e} }
func (e *embedded) Peers() Index[Peer]       { return index[Peer]{peerSchema, e} }

// closeWait bounds how long Close and Rebuild wait for the persister to
// write what is searchable but not yet on disk.
const closeWait = time.Minute

func (e *embedded) Close() error {
	var errs []error
	for _, bi := range e.indexes {
		bi.mu.Lock()
		if bi.idx != nil {
			errs = append(errs, bi.persistedBefore(closeWait), bi.idx.Close())
			bi.idx = nil
		}
		bi.mu.Unlock()
	}
	return errors.Join(errs...)
}

// errClosed is returned by an operation on a closed store.
var errClosed = errors.New("search: store closed")

// with runs fn with the index of s held for reading. An index that the
// disk refused a write is opened again first (see reopen); while that
// fails, the index is unavailable.
func (e *embedded) with(s *schema, fn func(bi *bleveIndex) error) error {
	bi := e.indexes[s.name]
	if bi.broken.Load() {
		if err := bi.reopen(); err != nil {
			return fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
	}
	err := bi.read(fn)
	if bi.broken.Load() {
		// At once: a search must not meet the broken state either.
		if rerr := bi.reopen(); rerr != nil {
			err = errors.Join(err, rerr)
		}
	}
	return err
}

func (bi *bleveIndex) read(fn func(bi *bleveIndex) error) error {
	bi.mu.RLock()
	defer bi.mu.RUnlock()
	if bi.idx == nil {
		return errClosed
	}
	return fn(bi)
}

func (e *embedded) upsert(ctx context.Context, s *schema, ids []string, docs []json.RawMessage, vectors [][]float32) error {
	return e.with(s, func(bi *bleveIndex) error {
		b := bi.idx.NewBatch()
		entries := make([]vectorEntry, len(docs))
		for i, raw := range docs {
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				return fmt.Errorf("search: %s %s: %w", s.name, ids[i], err)
			}
			m[sourceField] = string(raw)
			if vectors != nil && vectors[i] != nil && bi.layout.vectors {
				newer, _ := m[s.newest].(float64)
				entries[i] = vectorEntry{v: unit(vectors[i]), newer: newer}
				m[vectorField] = encodeEntry(entries[i])
				if bi.layout.vectorDims {
					m[vectorDimField] = strconv.Itoa(len(entries[i].v))
				}
			}
			if bi.numbersAsText {
				for _, f := range s.numeric {
					if v, ok := m[f].(float64); ok {
						m[f] = sortableNumber(v)
					}
				}
			}
			if err := b.Index(ids[i], m); err != nil {
				return fmt.Errorf("search: index %s %s: %w", s.name, ids[i], err)
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := bi.write(b); err != nil {
			return fmt.Errorf("search: write %s: %w", s.name, err)
		}
		bi.vectors.set(ids, entries)
		return nil
	})
}

func (e *embedded) delete(ctx context.Context, s *schema, ids []string) error {
	return e.with(s, func(bi *bleveIndex) error {
		b := bi.idx.NewBatch()
		for _, id := range ids {
			b.Delete(id)
		}
		if err := bi.write(b); err != nil {
			return fmt.Errorf("search: delete from %s: %w", s.name, err)
		}
		bi.vectors.drop(ids...)
		return nil
	})
}

func (e *embedded) deleteWhere(ctx context.Context, s *schema, f Filter) error {
	return e.with(s, func(bi *bleveIndex) error {
		q := bleveQuery(ctx, bi, s, "", nil, false, f)
		// Delete a page at a time until nothing matches; the bound stops a
		// loop should a delete not take.
		for range 1_000_000 {
			req := bleve.NewSearchRequestOptions(q, 1000, 0, false)
			res, err := bi.idx.SearchInContext(ctx, req)
			if err != nil {
				return fmt.Errorf("search: delete from %s: %w", s.name, err)
			}
			if len(res.Hits) == 0 {
				return nil
			}
			b := bi.idx.NewBatch()
			ids := make([]string, len(res.Hits))
			for i, h := range res.Hits {
				b.Delete(h.ID)
				ids[i] = h.ID
			}
			if err := bi.write(b); err != nil {
				return fmt.Errorf("search: delete from %s: %w", s.name, err)
			}
			bi.vectors.drop(ids...)
		}
		return fmt.Errorf("search: delete from %s did not finish", s.name)
	})
}

// wait returns once the writes made so far are on disk: they are
// searchable already, when Batch returns.
func (e *embedded) wait(ctx context.Context, s *schema) error {
	return e.with(s, func(bi *bleveIndex) error {
		if err := bi.persisted(ctx); err != nil {
			return fmt.Errorf("search: write %s: %w", s.name, err)
		}
		return nil
	})
}

func (e *embedded) rebuild(ctx context.Context, s *schema) error {
	bi := e.indexes[s.name]
	bi.mu.Lock()
	defer bi.mu.Unlock()
	if bi.idx == nil {
		return errClosed
	}
	// What is dropped need not reach the disk; waiting keeps the persister
	// from writing into a folder being removed.
	_ = bi.persistedBefore(closeWait)
	if err := bi.idx.Close(); err != nil {
		return fmt.Errorf("search: rebuild %s: %w", s.name, err)
	}
	bi.idx = nil
	if err := os.RemoveAll(bi.path); err != nil {
		return fmt.Errorf("search: rebuild %s: %w", s.name, err)
	}
	idx, err := newBleve(bi.path, bi.m)
	if err != nil {
		return fmt.Errorf("search: rebuild %s: %w", s.name, err)
	}
	bi.idx, bi.layout, bi.vectors = idx, layoutOf(idx), newVectorSet()
	bi.broken.Store(false)
	return nil
}
