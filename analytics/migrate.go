package analytics

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"strings"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"agora/internal/plumbing/migration"
)

// The folder is embedded whole (its README keeps it from being empty before
// the first migration); Migrations reads only its *.sql files.
//
//go:embed migrations
var migrationFiles embed.FS

// Migration is one ordered, append-only change of the warehouse schema.
type Migration struct {
	migration.File
	// Statements are the file's statements, in order, without the
	// semicolons between them.
	Statements []string
}

// Migrations lists the embedded migrations in order.
func Migrations() ([]Migration, error) {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	return ReadMigrations(sub)
}

// ReadMigrations lists the migrations of fsys (see migration.Read), each
// split into its statements: the native protocol takes one at a time.
func ReadMigrations(fsys fs.FS) ([]Migration, error) {
	files, err := migration.Read(fsys)
	if err != nil {
		return nil, fmt.Errorf("analytics: %w", err)
	}
	out := make([]Migration, 0, len(files))
	for _, f := range files {
		stmts, err := SplitStatements(f.SQL)
		if err != nil {
			return nil, fmt.Errorf("analytics: migration %s: %w", f.Version, err)
		}
		if len(stmts) == 0 {
			return nil, fmt.Errorf("analytics: migration %s has no statement", f.Version)
		}
		out = append(out, Migration{File: f, Statements: stmts})
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
	files := make([]migration.File, len(all))
	statements := map[string][]string{}
	for i, m := range all {
		files[i], statements[m.Version] = m.File, m.Statements
	}
	pending, err := migration.Pending(files, done)
	if err != nil {
		return nil, fmt.Errorf("analytics: %w", err)
	}
	for _, m := range pending {
		for i, stmt := range statements[m.Version] {
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
