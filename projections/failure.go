package projections

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// The runner sorts a failed change into one of three kinds:
//
//   - poison (Permanent, or a message that is no change event): it can
//     never apply, so it goes to the dead-letter topic at once;
//   - unavailable (Unavailable, or an error that says the target is down,
//     restarting or overloaded): the change is not at fault, so it is
//     retried for as long as it takes, and nothing after it is committed;
//   - any other error: retried MaxAttempts times, then dead-lettered, as
//     the runner cannot tell a bug in the projection from a bad row.

// permanent marks an error that retrying cannot fix.
type permanent struct{ err error }

func (p permanent) Error() string { return p.err.Error() }
func (p permanent) Unwrap() error { return p.err }

// Permanent wraps err so the runner dead-letters the change without
// retrying it.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return permanent{err}
}

// IsPermanent reports whether err was wrapped with Permanent.
func IsPermanent(err error) bool {
	var p permanent
	return errors.As(err, &p)
}

// unavailable marks an error of a target that cannot take the change now.
type unavailable struct{ err error }

func (u unavailable) Error() string { return u.err.Error() }
func (u unavailable) Unwrap() error { return u.err }

// Unavailable wraps err so the runner retries the change until its target
// takes it, never dead-lettering it: for a target's own way of saying it is
// down or overloaded that IsUnavailable does not know (a server's error
// code, an HTTP 503).
func Unavailable(err error) error {
	if err == nil {
		return nil
	}
	return unavailable{err}
}

// IsUnavailable reports whether err says the target is unavailable rather
// than the change wrong: wrapped with Unavailable, or a network failure
// (refused, reset, timed out, name not resolved, a connection cut short),
// the deadline of the call to the target, a full disk, or Postgres saying
// it is shutting down, starting up or out of resources. Permanent wins.
func IsUnavailable(err error) bool {
	if err == nil || IsPermanent(err) {
		return false
	}
	var (
		u  unavailable
		ne net.Error
		ce *pgconn.ConnectError
		pe *pgconn.PgError
	)
	switch {
	case errors.As(err, &u), errors.As(err, &ne), errors.As(err, &ce):
		return true
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, syscall.ENOSPC), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, context.DeadlineExceeded):
		return true
	case errors.As(err, &pe):
		return postgresUnavailable(pe.Code)
	}
	return false
}

// postgresUnavailable reports whether a SQLSTATE says the server cannot
// serve now: a connection exception (08), insufficient resources (53: disk
// full, out of memory, too many connections), or an operator intervention
// that ends or refuses sessions (57P01-57P05: shutting down, starting up).
func postgresUnavailable(code string) bool {
	return strings.HasPrefix(code, "08") || strings.HasPrefix(code, "53") ||
		(strings.HasPrefix(code, "57P") && code != "57P04") // 57P04: a database dropped
}
