package db

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/plumbing/migration"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrateLock is the advisory lock key that serialises migrators, so two
// processes starting together do not apply the same file twice.
const migrateLock = 0x61676f7261 // "agora"

// Migration is one ordered, append-only schema change.
type Migration = migration.File

// Migrations lists the embedded migrations in order.
func Migrations() ([]Migration, error) {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	return migration.Read(sub)
}

// Migrate applies the migrations not applied yet, each in its own
// transaction. An applied migration whose file changed is an error:
// migrations are append-only.
func Migrate(ctx context.Context, pool *pgxpool.Pool) (applied []string, err error) {
	all, err := Migrations()
	if err != nil {
		return nil, err
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrateLock); err != nil {
		return nil, err
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrateLock) //nolint:errcheck
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    text PRIMARY KEY,
		checksum   text NOT NULL,
		applied_on timestamptz NOT NULL DEFAULT now())`); err != nil {
		return nil, err
	}
	done := map[string]string{}
	rows, err := conn.Query(ctx, "SELECT version, checksum FROM schema_migrations")
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var v, c string
		if err := rows.Scan(&v, &c); err != nil {
			return nil, err
		}
		done[v] = c
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	pending, err := migration.Pending(all, done)
	if err != nil {
		return nil, fmt.Errorf("db: %w", err)
	}
	for _, m := range pending {
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version, checksum) VALUES ($1, $2)", m.Version, m.Checksum)
			return err
		})
		if err != nil {
			return applied, fmt.Errorf("db: migration %s: %w", m.Version, err)
		}
		applied = append(applied, m.Version)
	}
	return applied, nil
}

// Pending reports the migrations not applied to the database; /readyz uses it.
func Pending(ctx context.Context, pool *pgxpool.Pool) ([]string, error) {
	all, err := Migrations()
	if err != nil {
		return nil, err
	}
	done := map[string]bool{}
	rows, err := pool.Query(ctx, "SELECT version FROM schema_migrations")
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		done[v] = true
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var pending []string
	for _, m := range all {
		if !done[m.Version] {
			pending = append(pending, m.Version)
		}
	}
	return pending, nil
}
