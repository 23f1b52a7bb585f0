// Package db holds the Postgres write model: the connection pool, the
// ordered migrations, the jet models generated from them (gen/, made by
// `make gen`, never edited by hand), and the one way the product reaches
// its tables.
//
// One driver, one style. Statements on the schema's tables are built with
// jet (the generated gen/table and gen/model packages) and run through pgx
// by the runner here (Query, QueryRow, Exec, All, One): jet checks every
// statement against the migrated schema when the code compiles, so a
// renamed column fails the build rather than a request; pgx runs them
// because database/sql's conversions and pool cost the hottest reads more
// than the statement itself (cmd/bench -only feed measured it), and the
// relay, snapshots and migrations need pgx anyway. So there is one pool,
// one transaction type (pgx.Tx) and one no-rows error (pgx.ErrNoRows).
//
// One documented exception: query/feed's thread statements (threadsSQL,
// channelThreadsSQL, threadSQL) stay SQL text on pgx. They are the hottest
// reads, planned by hand: the page size is written into the text so that
// Postgres plans for it, where jet would bind it; cmd/bench -only feed
// measures them. The rules they share with jet statements (the forum read
// rule, isExpert) are jet expressions rendered into their text by Text,
// and their rows are scanned with plans kept per connection (ScanPlans).
//
// The migration runner (migrate.go), the private server (internal/standins/pgserver),
// replication (relay/) and the projections' snapshots speak to Postgres
// itself rather than to the schema's tables; they stay on pgx with SQL text.
package db

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DB is the connection pool.
type DB struct {
	Pool *pgxpool.Pool
}

// Open connects to url and checks the connection.
func Open(ctx context.Context, url string, maxConns int32) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("db: %w", err)
	}
	if maxConns > 0 {
		cfg.MaxConns = maxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("db: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("db: %w", err)
	}
	return &DB{Pool: pool}, nil
}

// Close releases every connection.
func (d *DB) Close() {
	d.Pool.Close()
}

// Querier is what statements run on: the pool, or a transaction.
// *pgxpool.Pool and pgx.Tx satisfy it.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

var (
	_ Querier = (*pgxpool.Pool)(nil)
	_ Querier = pgx.Tx(nil)
)

// InTx runs fn in a transaction on pool, committing when fn returns nil and
// rolling back otherwise.
func InTx(ctx context.Context, pool *pgxpool.Pool, fn func(tx pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, pool, fn)
}

// Query runs a jet statement and returns its rows.
func Query(ctx context.Context, q Querier, stmt postgres.Statement) (pgx.Rows, error) {
	text, args := stmt.Sql()
	return q.Query(ctx, text, args...)
}

// QueryRow runs a jet statement expected to return at most one row;
// its Scan reports pgx.ErrNoRows when there is none.
func QueryRow(ctx context.Context, q Querier, stmt postgres.Statement) pgx.Row {
	text, args := stmt.Sql()
	return q.QueryRow(ctx, text, args...)
}

// Exec runs a jet statement that returns no rows.
func Exec(ctx context.Context, q Querier, stmt postgres.Statement) (pgconn.CommandTag, error) {
	text, args := stmt.Sql()
	return q.Exec(ctx, text, args...)
}

// All runs a jet statement and collects every row into a T, matching
// columns to T's fields by name: a generated model's fields carry jet's
// default aliases ("users.first_name") as db tags; a local struct's
// untagged fields match an AS alias ignoring case and underscores
// (SeriesID ← "series_id"). Fields without a column are left zero; a
// column without a field is an error.
func All[T any](ctx context.Context, q Querier, stmt postgres.Statement) ([]T, error) {
	rows, err := Query(ctx, q, stmt)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByNameLax[T])
}

// One is All for the first row; none is pgx.ErrNoRows.
func One[T any](ctx context.Context, q Querier, stmt postgres.Statement) (T, error) {
	rows, err := Query(ctx, q, stmt)
	if err != nil {
		var zero T
		return zero, err
	}
	return pgx.CollectOneRow(rows, pgx.RowToStructByNameLax[T])
}

// Values runs a jet statement of one column and collects it.
func Values[T any](ctx context.Context, q Querier, stmt postgres.Statement) ([]T, error) {
	rows, err := Query(ctx, q, stmt)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[T])
}

// Count counts the rows of from that where keeps.
func Count(ctx context.Context, q Querier, from postgres.ReadableTable, where postgres.BoolExpression) (int, error) {
	var n int
	err := QueryRow(ctx, q, postgres.SELECT(postgres.COUNT(postgres.STAR)).FROM(from).WHERE(where)).Scan(&n)
	return n, err
}

// likeEscaper escapes LIKE's wildcards and its escape character (Postgres's
// default, backslash).
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// LikeLiteral is s escaped for a LIKE or ILIKE pattern, so that a person's
// %, _ and \ match themselves rather than any text.
func LikeLiteral(s string) string { return likeEscaper.Replace(s) }

// Contains is "one of the SQL texts contains keyword", case-insensitively,
// the keyword bound and taken literally (LikeLiteral). jet has no ILIKE, so
// this one condition is raw SQL: texts must be the program's constant
// column expressions, never input.
func Contains(keyword string, texts ...string) postgres.BoolExpression {
	or := make([]postgres.BoolExpression, len(texts))
	for i, t := range texts {
		or[i] = postgres.RawBool(t+" ILIKE '%' || #keyword || '%'", postgres.RawArgs{"#keyword": LikeLiteral(keyword)})
	}
	return postgres.OR(or...)
}

// Collect runs a jet statement and turns each row into a T with scan, for
// rows that a struct's fields cannot take by name (All); the slice is
// empty, not nil, when there are none.
func Collect[T any](ctx context.Context, q Querier, stmt postgres.Statement, scan func(pgx.Row) (T, error)) ([]T, error) {
	rows, err := Query(ctx, q, stmt)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (T, error) { return scan(r) })
}

// UUIDs are ids as jet literals, for IN lists.
func UUIDs(ids []uuid.UUID) []postgres.Expression {
	out := make([]postgres.Expression, len(ids))
	for i, id := range ids {
		out[i] = postgres.UUID(id)
	}
	return out
}

// Strings are values as jet literals, for IN lists (of kinds, states).
func Strings(values []string) []postgres.Expression {
	out := make([]postgres.Expression, len(values))
	for i, v := range values {
		out[i] = postgres.String(v)
	}
	return out
}

// Any is col = ANY(values), values bound as one array parameter. jet has no
// array parameters, and its IN binds one parameter per value, a new
// statement for every length: Any keeps one prepared statement whatever
// the number of values.
func Any(col postgres.Expression, values any) postgres.BoolExpression {
	return postgres.BoolExp(postgres.CustomExpression(col, postgres.Token(" = ANY("),
		postgres.Raw("#values", postgres.RawArgs{"#values": arrayArg(values)}), postgres.Token(")")))
}

// arrayArg is values as pgx binds them fastest. google/uuid's UUID is a
// driver.Valuer, so pgx asks each element of a []uuid.UUID for its text
// and parses it again; as [16]byte it writes the bytes as they are. The
// live events' audiences among 1,500 connected members spent a twentieth
// of the two cores binding their ids (the crowd benchmark's profile).
func arrayArg(values any) any {
	ids, ok := values.([]uuid.UUID)
	if !ok {
		return values
	}
	out := make([][16]byte, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

// UUIDPosition is col's place in ids (array_position), for reading rows in
// the order of a list of ids, such as a search index's; jet has no array
// parameters.
func UUIDPosition(ids any, col postgres.Expression) postgres.IntegerExpression {
	return postgres.IntExp(postgres.CustomExpression(postgres.Token("array_position("),
		postgres.Raw("#ids::uuid[]", postgres.RawArgs{"#ids": arrayArg(ids)}), postgres.Token(", "), col, postgres.Token(")")))
}

// Text renders a jet expression as SQL text with its literals written in,
// so that a statement kept as SQL text (see the package doc) embeds a rule
// defined once with jet rather than a second copy of it. The expression's
// literals must be the program's constants, never input: they are quoted
// into the text, not bound.
func Text(e postgres.Expression) string {
	sql := strings.TrimSpace(postgres.SELECT(e).DebugSql())
	return strings.TrimSuffix(strings.TrimPrefix(sql, "SELECT "), ";")
}

// Lock locks the row of tbl whose id column is id until the transaction q
// ends (SELECT … FOR UPDATE), so that the changes of one row queue up and
// the row is not deleted under them; when there is none, the error is
// missing.
func Lock(ctx context.Context, q Querier, tbl postgres.ReadableTable, id postgres.ColumnString, value uuid.UUID, missing error) error {
	var got uuid.UUID
	err := QueryRow(ctx, q, postgres.SELECT(id).FROM(tbl).WHERE(id.EQ(postgres.UUID(value))).FOR(postgres.UPDATE())).Scan(&got)
	if errors.Is(err, pgx.ErrNoRows) {
		return missing
	}
	return err
}
