package notifications

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"agora/projections"
)

var _ projections.Checked = (*Projection)(nil)

// Scratch is the same projection writing to a copy of its table, made now,
// which drop removes. A rebuild keeps the rows whose source exists (see
// the package doc), so what a rebuild gives starts from the rows there
// are: agora projector check resets and fills the copy from a snapshot
// and compares it with the table.
func (p *Projection) Scratch(ctx context.Context) (scratch *Projection, drop func(context.Context) error, err error) {
	c := *p
	c.n = p.n.WithSuffix(fmt.Sprintf("_check_%d", time.Now().UnixNano()))
	from, to := pgx.Identifier{p.n.SchemaName(), p.n.TableName()}.Sanitize(), pgx.Identifier{c.n.SchemaName(), c.n.TableName()}.Sanitize()
	// An unlogged copy: it is thrown away, and need not fill the WAL the
	// relay reads.
	if _, err := p.db.Exec(ctx, fmt.Sprintf("CREATE UNLOGGED TABLE %s (LIKE %s INCLUDING ALL); INSERT INTO %[1]s SELECT * FROM %[2]s", to, from)); err != nil {
		return nil, nil, fmt.Errorf("notifications: scratch table: %w", err)
	}
	return &c, func(ctx context.Context) error {
		_, err := p.db.Exec(ctx, "DROP TABLE IF EXISTS "+to)
		return err
	}, nil
}

// Records lists the rows of the table, keyed by id, each as its JSON.
func (p *Projection) Records(ctx context.Context, emit func(key, content string) error) error {
	rows, err := p.db.Query(ctx, fmt.Sprintf("SELECT id::text, row_to_json(n)::text FROM %s n", pgx.Identifier{p.n.SchemaName(), p.n.TableName()}.Sanitize()))
	if err != nil {
		return fmt.Errorf("notifications: read: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, row string
		if err := rows.Scan(&id, &row); err != nil {
			return fmt.Errorf("notifications: read: %w", err)
		}
		if err := emit(id, row); err != nil {
			return err
		}
	}
	return rows.Err()
}
