package db_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"agora/internal/plumbing/db"
	"agora/internal/standins/pgserver"
)

// TestScanPlans: rows scanned with kept plans read what rows.Scan reads,
// on every connection of the pool and after one is closed, with a column
// left out, a target whose type changes between rows, and a value the
// target cannot hold refused as rows.Scan refuses it.
// Callers run at once, as a pool serves them (make test runs with -race).
func TestScanPlans(t *testing.T) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "agora-scanplans-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil { // the server may run as another user
		t.Fatal(err)
	}
	srv, err := pgserver.Start(ctx, dir, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatalf("start postgres: %v", err)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	d, err := db.Open(ctx, srv.URL("postgres"), 3)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)

	const sql = `SELECT n, 'row ' || n, CASE WHEN n % 2 = 0 THEN NULL ELSE ARRAY['a', n::text] END, now()
		FROM generate_series(1, 3) AS n`
	var plans db.ScanPlans
	read := func(rows pgx.Rows) (got [][]string) {
		s := plans.Rows(rows)
		for i := 0; rows.Next(); i++ {
			var (
				n     int32
				n64   int64
				label string
				tags  []string
				at    pgtype.Timestamptz
			)
			// The first column's target changes type on the second row,
			// and the time is left out after the first.
			dest := []any{&n, &label, &tags, &at}
			if i == 1 {
				dest[0] = &n64
			}
			if i > 0 {
				dest[3] = nil
			}
			if err := s.Scan(dest...); err != nil {
				t.Fatal(err)
			}
			if i == 0 && !at.Valid {
				t.Error("the time was not read")
			}
			if i == 1 {
				n = int32(n64)
			}
			got = append(got, append([]string{label, strconv.Itoa(int(n))}, tags...))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return got
	}
	want := [][]string{{"row 1", "1", "a", "1"}, {"row 2", "2"}, {"row 3", "3", "a", "3"}}
	// Three runs at once take the pool's three connections, and each
	// connection is then run on again with the plans it made.
	for round := range 2 {
		var held []pgx.Rows
		for range 3 {
			rows, err := d.Pool.Query(ctx, sql)
			if err != nil {
				t.Fatal(err)
			}
			held = append(held, rows)
		}
		for _, rows := range held {
			if got := read(rows); !slices.EqualFunc(got, want, slices.Equal[[]string]) {
				t.Errorf("round %d: read %q, want %q", round, got, want)
			}
			rows.Close()
		}
	}

	// Callers at once, one of them letting its connection go each time so
	// that the pool opens new ones while the others' are busy.
	var wg sync.WaitGroup
	for caller := range 3 {
		wg.Go(func() {
			for range 20 {
				conn, err := d.Pool.Acquire(ctx)
				if err != nil {
					t.Error(err)
					return
				}
				rows, err := conn.Query(ctx, sql)
				if err != nil {
					t.Error(err)
					conn.Release()
					return
				}
				s := plans.Rows(rows)
				for rows.Next() {
					var (
						n     int32
						label string
						tags  []string
					)
					if err := s.Scan(&n, &label, &tags, nil); err != nil {
						t.Error(err)
					}
				}
				rows.Close()
				if caller == 0 {
					_ = conn.Hijack().Close(ctx)
				} else {
					conn.Release()
				}
			}
		})
	}
	wg.Wait()

	// A connection the pool has let go of is forgotten once it is
	// collected, while a new one is served.
	closeOne := func() {
		conn, err := d.Pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := conn.Query(ctx, sql)
		if err != nil {
			t.Fatal(err)
		}
		read(rows)
		rows.Close()
		if err := conn.Hijack().Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
	closeOne()
	fresh, err := pgx.Connect(ctx, srv.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fresh.Close(ctx) })
	rows, err := fresh.Query(ctx, sql)
	if err != nil {
		t.Fatal(err)
	}
	if got := read(rows); !slices.EqualFunc(got, want, slices.Equal[[]string]) {
		t.Errorf("a new connection read %q", got)
	}
	// Every connection the pool holds has run the statement.
	wantKept := int(d.Pool.Stat().TotalConns()) + 1
	kept := 0
	for range 100 {
		runtime.GC()
		if kept = db.ScanPlansConnections(&plans); kept == wantKept {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if kept != wantKept {
		t.Errorf("plans kept for %d connections, want %d (the pool's and the new one)", kept, wantKept)
	}

	// A value the target cannot hold is an error naming its column.
	rows, err = d.Pool.Query(ctx, `SELECT 'not a number'::text AS word`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	s := plans.Rows(rows)
	rows.Next()
	var n int32
	var arg pgx.ScanArgError
	if err := s.Scan(&n); !errors.As(err, &arg) || arg.FieldName != "word" {
		t.Errorf("scanning text into an int: %v", err)
	}
	if err := s.Scan(&n, &n); err == nil {
		t.Error("two targets for one column were accepted")
	}
}
