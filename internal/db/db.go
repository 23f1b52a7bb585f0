// Package db holds the Postgres write model: the connection pool, the
// ordered migrations, and the jet models generated from them (gen/, made by
// `make gen`, never edited by hand).
package db

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
)

// DB is the pool and a database/sql view of it for jet's query runner.
type DB struct {
	Pool *pgxpool.Pool
	SQL  *sql.DB
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
	return &DB{Pool: pool, SQL: stdlib.OpenDBFromPool(pool)}, nil
}

// Close releases every connection.
func (d *DB) Close() {
	d.SQL.Close()
	d.Pool.Close()
}

// InTx runs fn in a transaction on db, committing when fn returns nil.
func InTx(ctx context.Context, db *sql.DB, fn func(tx *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}
