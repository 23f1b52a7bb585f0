package analytics

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
)

// The folder is embedded whole (its README keeps it from being empty before
// the first migration); Migrations reads only its *.sql files.
//
//go:embed migrations
var migrationFiles embed.FS

// Migration is one ordered, append-only change of the warehouse schema.
type Migration struct {
	// Version is the file name without .sql, e.g. 0001_events.
	Version string
	// Statements are the file's statements, in order, without the
	// semicolons between them.
	Statements []string
	// Checksum is the SHA-256 of the file, to notice an edited migration.
	Checksum string
}

var migrationName = regexp.MustCompile(`^[0-9]{4}_[a-z0-9_]+\.sql$`)

// Migrations lists the embedded migrations in order.
func Migrations() ([]Migration, error) {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	return ReadMigrations(sub)
}

// ReadMigrations lists the migrations of fsys: its top-level *.sql files,
// named NNNN_words.sql, in name order.
func ReadMigrations(fsys fs.FS) ([]Migration, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	out := make([]Migration, 0, len(names))
	for _, n := range names {
		if !migrationName.MatchString(n) {
			return nil, fmt.Errorf("analytics: migration %s: name it NNNN_words.sql (four digits, lower-case words)", n)
		}
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		stmts, err := SplitStatements(string(b))
		if err != nil {
			return nil, fmt.Errorf("analytics: migration %s: %w", n, err)
		}
		if len(stmts) == 0 {
			return nil, fmt.Errorf("analytics: migration %s has no statement", n)
		}
		sum := sha256.Sum256(b)
		out = append(out, Migration{
			Version:    strings.TrimSuffix(path.Base(n), ".sql"),
			Statements: stmts,
			Checksum:   hex.EncodeToString(sum[:]),
		})
	}
	return out, nil
}

// Migrate applies the embedded migrations not applied yet to the database
// conn is connected to, and returns the versions it applied.
func Migrate(ctx context.Context, conn driver.Conn) ([]string, error) {
	all, err := Migrations()
	if err != nil {
		return nil, err
	}
	return Apply(ctx, conn, all)
}

// Apply applies the migrations of all not recorded yet in the
// schema_migrations table, in order, and records each once all its
// statements succeeded. An applied migration whose file changed is an
// error: migrations are append-only.
//
// ClickHouse has no transactions and no locks to serialise migrators: a
// migration that fails halfway is run again from its first statement next
// time, so each statement must be safe to repeat (CREATE … IF NOT EXISTS,
// ALTER … ADD COLUMN IF NOT EXISTS); and one process migrates the warehouse
// at a time (agora dev, or a deployment's migrate step).
func Apply(ctx context.Context, conn driver.Conn, all []Migration) (applied []string, err error) {
	// MergeTree exists on 18.16 and every later version; the ORDER BY form
	// of the engine clause is understood by both.
	if err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    String,
		checksum   String,
		applied_at DateTime
	) ENGINE = MergeTree ORDER BY version`); err != nil {
		return nil, fmt.Errorf("analytics: create schema_migrations: %w", err)
	}
	done := map[string]string{}
	rows, err := conn.Query(ctx, "SELECT version, checksum FROM schema_migrations")
	if err != nil {
		return nil, fmt.Errorf("analytics: read schema_migrations: %w", err)
	}
	for rows.Next() {
		var v, c string
		if err := rows.Scan(&v, &c); err != nil {
			rows.Close()
			return nil, err
		}
		done[v] = c
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, m := range all {
		if sum, ok := done[m.Version]; ok {
			if sum != m.Checksum {
				return applied, fmt.Errorf("analytics: migration %s was changed after it was applied; add a new migration instead", m.Version)
			}
			continue
		}
		for i, stmt := range m.Statements {
			if err := conn.Exec(ctx, stmt); err != nil {
				return applied, fmt.Errorf("analytics: migration %s, statement %d: %w", m.Version, i+1, err)
			}
		}
		// INSERT … SELECT rather than VALUES: through the native protocol
		// 18.16 waits for a data block after an INSERT … VALUES and hangs.
		if err := conn.Exec(ctx, "INSERT INTO schema_migrations (version, checksum, applied_at) SELECT ?, ?, now()", m.Version, m.Checksum); err != nil {
			return applied, fmt.Errorf("analytics: record migration %s: %w", m.Version, err)
		}
		applied = append(applied, m.Version)
	}
	return applied, nil
}

// SplitStatements splits sql at the semicolons that end statements: not
// those inside quotes ('…', "…", `…`, with backslash escapes or doubled
// quotes) or comments (-- to the end of the line, /* … */). Statements
// that hold nothing but comments and blanks are dropped.
func SplitStatements(sql string) ([]string, error) {
	var out []string
	start := 0
	code := false // the current statement holds more than comments
	flush := func(end int) {
		if code {
			out = append(out, strings.TrimSpace(sql[start:end]))
		}
		start, code = end+1, false
	}
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		switch {
		case c == ';':
			flush(i)
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			if j := strings.IndexByte(sql[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(sql)
			}
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			j := strings.Index(sql[i+2:], "*/")
			if j < 0 {
				return nil, fmt.Errorf("unterminated /* comment")
			}
			i += j + 3
		case c == '\'' || c == '"' || c == '`':
			code = true
			j, err := quoteEnd(sql, i)
			if err != nil {
				return nil, err
			}
			i = j
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			code = true
		}
	}
	flush(len(sql))
	return out, nil
}

// quoteEnd is the index of the quote that closes the one at open.
func quoteEnd(sql string, open int) (int, error) {
	q := sql[open]
	for i := open + 1; i < len(sql); i++ {
		switch sql[i] {
		case '\\':
			i++ // the escaped character, whatever it is
		case q:
			if i+1 < len(sql) && sql[i+1] == q {
				i++ // a doubled quote stands for itself
				continue
			}
			return i, nil
		}
	}
	return 0, fmt.Errorf("unterminated %c quote", q)
}
