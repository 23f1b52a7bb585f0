// Package migration reads a folder of ordered, append-only SQL migrations
// and tells which are still to apply. Postgres (internal/plumbing/db) and the
// ClickHouse warehouse (analytics) apply them each in their own way: a
// transaction a file there, statement by statement here.
package migration

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"
)

// File is one migration.
type File struct {
	// Version is the file name without .sql, e.g. 0001_identity.
	Version string
	SQL     string
	// Checksum is the SHA-256 of the file, to notice an edited migration.
	Checksum string
}

var name = regexp.MustCompile(`^[0-9]{4}_[a-z0-9_]+\.sql$`)

// Read lists the migrations of fsys: its top-level *.sql files, named
// NNNN_words.sql, in name order.
func Read(fsys fs.FS) ([]File, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	out := make([]File, 0, len(names))
	for _, n := range names {
		if !name.MatchString(n) {
			return nil, fmt.Errorf("migration %s: name it NNNN_words.sql (four digits, lower-case words)", n)
		}
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(b)
		out = append(out, File{Version: strings.TrimSuffix(n, ".sql"), SQL: string(b), Checksum: hex.EncodeToString(sum[:])})
	}
	return out, nil
}

// Pending returns, in order, the migrations of all that applied (version
// to checksum, as recorded by the database) does not hold. A recorded
// migration whose file changed since is an error: migrations are
// append-only, and the database would not be what the files say.
func Pending(all []File, applied map[string]string) ([]File, error) {
	var out []File
	for _, m := range all {
		sum, ok := applied[m.Version]
		if !ok {
			out = append(out, m)
			continue
		}
		if sum != m.Checksum {
			return nil, fmt.Errorf("migration %s was changed after it was applied; add a new migration instead", m.Version)
		}
	}
	return out, nil
}
