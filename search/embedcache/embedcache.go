// Package embedcache keeps an embedding model's vectors on disk, so that
// a text embedded once is not embedded again: agora dev embeds the same
// demo posts at every start (the tests start it many times), and the
// sentence model takes a tenth of a second of a core for a long post.
//
// The folder is shared by every process that uses it at once (parallel
// tests start several agora dev). It holds append-only files, shards by
// key, of fixed-size records (the key, the vector, a CRC-32), appended
// one write per batch on an O_APPEND descriptor under an exclusive flock.
// A reader indexes the records it has read (key → offset), not their
// vectors, which it reads with pread when asked for one: a large forum's
// would take hundreds of megabytes. On a miss it first reads what the
// others appended since. A record whose CRC does not match is skipped; a
// torn one (its writer died inside the write) is cut by the next writer.
// A key is the SHA-256 of the model's name and the text.
package embedcache

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"

	"agora/search"
)

const (
	// shards is how many files the records are spread over, by their
	// key's first byte: a miss re-reads only its shard's new records.
	shards = 16
	// MaxBytes bounds the files together: 1 GiB holds the vectors of
	// some 680,000 texts of 384 dimensions, a large forum's posts and
	// their edits, and is what a cache folder may reasonably take. Past
	// it the cache serves what it holds and keeps nothing more.
	MaxBytes = 1 << 30
	// chunk is how many records a reader reads at once.
	chunk = 1024
)

// Cache is a search.Embedder that answers from the folder what it holds
// and asks the model for the rest. It is safe for concurrent use.
type Cache struct {
	inner   search.Embedder
	model   string
	dims    int
	dir     string
	recSize int64
	limit   int64 // the most bytes of a shard: its share of MaxBytes
	shards  [shards]*shard
	hits    atomic.Int64
	misses  atomic.Int64
	unkept  atomic.Int64
}

// shard is one file and what this process has read of it.
type shard struct {
	// mu guards the index, and keeps two appends of this process apart
	// (flock does not: they share the descriptor).
	mu    sync.Mutex
	f     *os.File
	index map[[sha256.Size]byte]int64 // key → record offset
	end   int64                       // how far the file has been read
}

// Wrap opens (creating it) dir's folder for model's vectors of dims
// dimensions, <model>-<dims>, so that a change of model or of dimension
// never reads the vectors of another, and returns the cache in front of
// inner.
func Wrap(inner search.Embedder, dir, model string, dims int) (*Cache, error) {
	if dims <= 0 || model == "" {
		return nil, fmt.Errorf("embedcache: model %q of %d dimensions", model, dims)
	}
	folder := filepath.Join(dir, url.PathEscape(model)+fmt.Sprintf("-%d", dims))
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return nil, fmt.Errorf("embedcache: %w", err)
	}
	c := &Cache{inner: inner, model: model, dims: dims, dir: folder, recSize: int64(sha256.Size + 4*dims + 4), limit: MaxBytes / shards}
	for i := range c.shards {
		f, err := os.OpenFile(filepath.Join(folder, fmt.Sprintf("%x.v1", i)), os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("embedcache: %w", err)
		}
		c.shards[i] = &shard{f: f, index: map[[sha256.Size]byte]int64{}}
		c.shards[i].refresh(c)
	}
	return c, nil
}

// Embed answers each text's vector from the folder when it is there;
// the others are embedded by inner in one call, in their order, and
// appended. A vector that cannot be kept (the folder full, a disk
// error) is still answered.
func (c *Cache) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	keys := make([][sha256.Size]byte, len(texts))
	var missed []int
	for i, t := range texts {
		keys[i] = sha256.Sum256([]byte(c.model + "\x00" + t))
		if v, ok := c.get(keys[i]); ok {
			out[i] = v
		} else {
			missed = append(missed, i)
		}
	}
	c.hits.Add(int64(len(texts) - len(missed)))
	if len(missed) == 0 {
		return out, nil
	}
	c.misses.Add(int64(len(missed)))
	asked := make([]string, len(missed))
	for j, i := range missed {
		asked[j] = texts[i]
	}
	vecs, err := c.inner.Embed(ctx, asked)
	if err != nil {
		return nil, err
	}
	if len(vecs) != len(asked) {
		return nil, fmt.Errorf("embedcache: %d vectors for %d texts", len(vecs), len(asked))
	}
	var recs [shards][]byte
	for j, i := range missed {
		if len(vecs[j]) != c.dims {
			return nil, fmt.Errorf("embedcache: a vector of %d dimensions, not %d", len(vecs[j]), c.dims)
		}
		out[i] = vecs[j]
		s := shardOf(keys[i])
		recs[s] = encode(recs[s], keys[i], vecs[j])
	}
	for s, r := range recs {
		if len(r) > 0 && c.shards[s].append(c, r) != nil {
			c.unkept.Add(int64(len(r)) / c.recSize)
		}
	}
	return out, nil
}

// Stats says how the cache has served: the vectors answered from the
// folder, those embedded, and those of the embedded not kept (the
// folder full, or a disk error).
type Stats struct{ Hits, Misses, Unkept int64 }

// Stats is what the cache has done since Wrap.
func (c *Cache) Stats() Stats {
	return Stats{Hits: c.hits.Load(), Misses: c.misses.Load(), Unkept: c.unkept.Load()}
}

// Dir is the folder of the model's vectors, under Wrap's dir.
func (c *Cache) Dir() string { return c.dir }

// Close closes the files; the cache embeds without them afterwards.
func (c *Cache) Close() error {
	var err error
	for _, s := range c.shards {
		if s != nil {
			err = errors.Join(err, s.f.Close())
		}
	}
	return err
}

func shardOf(key [sha256.Size]byte) int { return int(key[0]) % shards }

// get is key's vector from the folder, reading the shard's new records
// first when this process has not seen it.
func (c *Cache) get(key [sha256.Size]byte) ([]float32, bool) {
	s := c.shards[shardOf(key)]
	s.mu.Lock()
	defer s.mu.Unlock()
	off, ok := s.index[key]
	if !ok {
		s.refresh(c)
		if off, ok = s.index[key]; !ok {
			return nil, false
		}
	}
	rec := make([]byte, c.recSize)
	if _, err := s.f.ReadAt(rec, off); err != nil || !valid(rec) || [sha256.Size]byte(rec) != key {
		return nil, false
	}
	v := make([]float32, c.dims)
	for d := range v {
		v[d] = math.Float32frombits(binary.LittleEndian.Uint32(rec[sha256.Size+4*d:]))
	}
	return v, true
}

// refresh indexes the whole records appended since the last read. A
// record cut short is left for later: its writer may be writing it.
func (s *shard) refresh(c *Cache) {
	fi, err := s.f.Stat()
	if err != nil {
		return
	}
	for n := (fi.Size() - s.end) / c.recSize; n > 0; n = (fi.Size() - s.end) / c.recSize {
		buf := make([]byte, min(n, chunk)*c.recSize)
		if _, err := s.f.ReadAt(buf, s.end); err != nil {
			return
		}
		for at := int64(0); at < int64(len(buf)); at += c.recSize {
			if rec := buf[at : at+c.recSize]; valid(rec) {
				s.index[[sha256.Size]byte(rec)] = s.end + at
			}
		}
		s.end += int64(len(buf))
	}
}

// append writes recs at the end of the file in one write, unless the
// file would pass its share of MaxBytes. The lock keeps the others'
// writes out, so a length that is not a whole number of records is a
// torn record, whose bytes go before the new ones would be misread.
func (s *shard) append(c *Cache, recs []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	fd := int(s.f.Fd())
	if err := syscall.Flock(fd, syscall.LOCK_EX); err != nil {
		return err
	}
	defer syscall.Flock(fd, syscall.LOCK_UN) //nolint:errcheck // closing the file unlocks too
	fi, err := s.f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	if torn := size % c.recSize; torn != 0 {
		size -= torn
		if err := s.f.Truncate(size); err != nil {
			return err
		}
	}
	if size+int64(len(recs)) > c.limit {
		return errFull
	}
	_, err = s.f.Write(recs)
	return err
}

var errFull = errors.New("embedcache: the folder is full")

// encode appends the record of key and v to b: the key, the vector's
// components as little-endian float32s, and the CRC-32 of both.
func encode(b []byte, key [sha256.Size]byte, v []float32) []byte {
	start := len(b)
	b = append(b, key[:]...)
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start:]))
}

// valid reports whether a record's CRC matches its key and vector.
func valid(rec []byte) bool {
	body := rec[:len(rec)-4]
	return crc32.ChecksumIEEE(body) == binary.LittleEndian.Uint32(rec[len(body):])
}
