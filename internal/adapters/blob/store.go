// Package blob is the embedded blob store: uploaded files kept as plain files
// under one folder, and the signed URLs through which a browser puts and gets
// them without a session, as it would with a cloud store's shared access
// signatures (SAS). A deployment with several API nodes shares the folder
// (a network volume) and the signing secret.
//
// The folder holds objects/<id> (the blobs, immutable once written), tmp/
// (uploads being received) and, unless a secret is configured, signing.key.
// Nothing is created until the first upload, so a server that never receives
// one leaves no trace.
package blob

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/google/uuid"
)

// HeadSize is how many leading bytes of a blob are kept for sniffing its
// type: what net/http.DetectContentType reads.
const HeadSize = 512

// ErrTooLarge is a body longer than the limit it was staged with.
var ErrTooLarge = errors.New("blob: body over the limit")

// Store keeps blobs under a folder and signs URLs to them.
type Store struct {
	dir    string
	secret []byte

	mu  sync.Mutex // guards key and ready
	key []byte
	// ready is set once the folders exist.
	ready bool
}

// New returns the store for dir. secret signs the URLs; when empty, a random
// key is made on first use and kept in dir/signing.key. New touches no file.
func New(dir, secret string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("blob.New: no folder")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("blob.New: %w", err)
	}
	return &Store{dir: abs, secret: []byte(secret)}, nil
}

// Dir is the store's folder.
func (s *Store) Dir() string { return s.dir }

func (s *Store) objectPath(id uuid.UUID) string {
	return filepath.Join(s.dir, "objects", id.String())
}

// folders creates objects/ and tmp/ once.
func (s *Store) folders() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ready {
		return nil
	}
	for _, d := range []string{"objects", "tmp"} {
		if err := os.MkdirAll(filepath.Join(s.dir, d), 0o750); err != nil {
			return fmt.Errorf("blob: %w", err)
		}
	}
	s.ready = true
	return nil
}

// Staged is a body received into a temporary file, not yet a blob: the
// caller looks at it, then commits or discards it.
type Staged struct {
	// Size is the number of bytes received.
	Size int64
	// Head is the first HeadSize bytes (fewer for a shorter body).
	Head []byte
	path string
}

// Stage copies r into a temporary file, reading at most limit bytes and one
// more to tell whether the body is longer: then it removes the file and
// returns ErrTooLarge, whatever the request's Content-Length said. A read
// error (the client went away) also leaves nothing behind, and so does a
// write error (a full disk: the error then wraps ENOSPC).
func (s *Store) Stage(r io.Reader, limit int64) (*Staged, error) {
	if err := s.folders(); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Join(s.dir, "tmp"), "upload-*")
	if err != nil {
		return nil, fmt.Errorf("blob: %w", err)
	}
	st := &Staged{path: f.Name()}
	head := &headWriter{max: HeadSize}
	n, err := io.Copy(io.MultiWriter(f, head), io.LimitReader(r, limit+1))
	if err == nil && n > limit {
		err = ErrTooLarge
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("blob: %w", cerr)
	}
	if err != nil {
		_ = os.Remove(st.path)
		return nil, err
	}
	st.Size, st.Head = n, head.buf
	return st, nil
}

// Commit makes the staged body the blob id.
func (s *Store) Commit(st *Staged, id uuid.UUID) error {
	if err := os.Rename(st.path, s.objectPath(id)); err != nil {
		return fmt.Errorf("blob: commit: %w", err)
	}
	return nil
}

// Discard removes a staged body that is not wanted.
func (s *Store) Discard(st *Staged) {
	_ = os.Remove(st.path)
}

// Remove deletes the blob id, if it is there.
func (s *Store) Remove(id uuid.UUID) error {
	if err := os.Remove(s.objectPath(id)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("blob: %w", err)
	}
	return nil
}

// RemoveAll deletes the blobs ids, going on past a failure; it returns
// the first failure.
func (s *Store) RemoveAll(ids []uuid.UUID) error {
	var first error
	for _, id := range ids {
		if err := s.Remove(id); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Open opens the blob id for reading; a missing blob is an error wrapping
// os.ErrNotExist.
func (s *Store) Open(id uuid.UUID) (*os.File, error) {
	return os.Open(s.objectPath(id))
}

// headWriter keeps the first max bytes written to it.
type headWriter struct {
	buf []byte
	max int
}

func (h *headWriter) Write(p []byte) (int, error) {
	if room := h.max - len(h.buf); room > 0 {
		h.buf = append(h.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}
