package app

import (
	"errors"
	"io"
	"log/slog"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"agora/command/memberimport"
	"agora/internal/plumbing/config"
	"agora/internal/plumbing/db"
)

// A constructor that fails in the middle of the application's
// construction stops it, and its error is NewAPI's: an `if err == nil`
// chain once let the constructor after the member import overwrite its
// error, and the API started without that use case.
func TestNewAPIReturnsAConstructorsError(t *testing.T) {
	boom := errors.New("member import: refused")
	defer func(orig func(*db.DB) (*memberimport.Service, error)) { newMemberImports = orig }(newMemberImports)
	newMemberImports = func(*db.DB) (*memberimport.Service, error) { return nil, boom }

	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	// The constructors only keep the pool: none connects, so an address
	// where nothing listens will do.
	pool, err := pgxpool.New(t.Context(), "postgres://agora@127.0.0.1:1/agora?connect_timeout=1")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	srv, err := NewAPI(cfg, &db.DB{Pool: pool}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if !errors.Is(err, boom) {
		t.Fatalf("NewAPI with a failing member import constructor: %v, %v; want its error", srv, err)
	}
}

func TestFirstErrorStopsAtTheFirstFailure(t *testing.T) {
	first, second := errors.New("first"), errors.New("second")
	var ran []int
	step := func(i int, err error) func() error {
		return func() error { ran = append(ran, i); return err }
	}
	if err := firstError(step(1, nil), step(2, first), step(3, second), step(4, nil)); err != first {
		t.Errorf("firstError = %v, want the first failure", err)
	}
	if len(ran) != 2 || ran[0] != 1 || ran[1] != 2 {
		t.Errorf("steps run %v, want 1 and 2 only", ran)
	}
	ran = nil
	if err := firstError(step(1, nil), step(2, nil)); err != nil || len(ran) != 2 {
		t.Errorf("firstError = %v after %v, want nil after both", err, ran)
	}
	if err := firstError(); err != nil {
		t.Errorf("firstError() = %v", err)
	}
}
