// Package projectiontest holds what tests and benchmarks of the change
// pipeline share: a counting projection whose target shows whether every
// change was applied exactly once in effect, and a helper that runs the
// embedded broker and the relay for a test database.
package projectiontest

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/projections/change"
)

// Counting counts, per row of one source table, the changes it applied. It
// is idempotent the way every projection must be: a change whose position
// is not newer than the one the target row holds changes nothing, so a
// replayed change is not counted twice, and a missing one shows as a count
// lower than the number of writes. The target is a table in schema
// projtest (outside the published schema, so it is not captured itself).
type Counting struct {
	name, source, target string
	pool                 *pgxpool.Pool
	// OnApplied, when set, is called after each applied batch.
	OnApplied func([]change.Change)
	// Fail, when set, is consulted before each change; an error it returns
	// fails the apply (poison-message tests).
	Fail func(change.Change) error
}

// NewCounting makes a counting projection named name over source
// ("public.t") with its target table projtest.<name>, created if missing.
func NewCounting(ctx context.Context, pool *pgxpool.Pool, name, source string) (*Counting, error) {
	c := &Counting{name: name, source: source, target: pgx.Identifier{"projtest", name}.Sanitize(), pool: pool}
	// IF NOT EXISTS is no guard against another process creating the
	// same schema or table at the same moment (a unique violation on the
	// catalogue): the lock, held to the end of this one transaction,
	// makes them take turns.
	_, err := pool.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('projtest', 0));
		CREATE SCHEMA IF NOT EXISTS projtest;
		CREATE TABLE IF NOT EXISTS `+c.target+` (
			id text PRIMARY KEY,
			applied integer NOT NULL,
			commit_lsn bigint NOT NULL,
			change_lsn bigint NOT NULL,
			deleted boolean NOT NULL,
			val text
		)`)
	if err != nil {
		return nil, fmt.Errorf("counting: %w", err)
	}
	return c, nil
}

// Name implements projections.Handler.
func (c *Counting) Name() string { return c.name }

// Tables implements projections.Handler.
func (c *Counting) Tables() []string { return []string{c.source} }

// Apply implements projections.Handler.
func (c *Counting) Apply(ctx context.Context, ch change.Change) error {
	return c.ApplyBatch(ctx, []change.Change{ch})
}

const upsert = `INSERT INTO %[1]s AS t (id, applied, commit_lsn, change_lsn, deleted, val) VALUES ($1, 1, $2, $3, $4, $5)
	ON CONFLICT (id) DO UPDATE SET applied = t.applied + 1, commit_lsn = excluded.commit_lsn,
		change_lsn = excluded.change_lsn, deleted = excluded.deleted, val = excluded.val
	WHERE (t.commit_lsn, t.change_lsn) < (excluded.commit_lsn, excluded.change_lsn)`

// ApplyBatch implements projections.BatchHandler: one transaction.
func (c *Counting) ApplyBatch(ctx context.Context, cs []change.Change) error {
	b := &pgx.Batch{}
	q := fmt.Sprintf(upsert, c.target)
	for _, ch := range cs {
		if c.Fail != nil {
			if err := c.Fail(ch); err != nil {
				return err
			}
		}
		if ch.Op == change.Truncate {
			b.Queue("DELETE FROM " + c.target)
			continue
		}
		id := keyString(ch.Key)
		var val *string
		if r := ch.Row(); r != nil && r.Has("val") && !r.IsNull("val") {
			v := string(r["val"])
			val = &v
		}
		p := ch.Position()
		b.Queue(q, id, int64(p.Commit), int64(p.Change), ch.Op == change.Delete, val)
	}
	err := pgx.BeginFunc(ctx, c.pool, func(tx pgx.Tx) error {
		return tx.SendBatch(ctx, b).Close()
	})
	if err != nil {
		return fmt.Errorf("counting: %w", err)
	}
	if c.OnApplied != nil {
		c.OnApplied(cs)
	}
	return nil
}

// Reset implements projections.Rebuilder.
func (c *Counting) Reset(ctx context.Context) error {
	_, err := c.pool.Exec(ctx, "TRUNCATE "+c.target)
	return err
}

// keyString is the key as text: the single column's value, or the JSON.
func keyString(k change.Row) string {
	if len(k) == 1 {
		for _, v := range k {
			return strings.Trim(string(v), `"`)
		}
	}
	var b strings.Builder
	for col, v := range k {
		b.WriteString(col + "=" + string(v) + ";")
	}
	return b.String()
}

// Target is the target table's name, for queries in tests.
func (c *Counting) Target() string { return c.target }
