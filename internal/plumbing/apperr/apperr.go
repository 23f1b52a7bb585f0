// Package apperr is the one error type of the application: a catalogue code
// (the spec's slug), a kind, a message and details. The HTTP layer is the
// only place that maps kinds to statuses.
package apperr

import (
	"errors"
	"fmt"
	"sort"
	"syscall"
)

// Kind classifies an error for the transport.
type Kind int

// The kinds an Error can have.
const (
	Internal Kind = iota
	BadInput
	Unauthorized
	Forbidden
	NotFound
	Conflict
	Gone
	TooMany
	TooLarge
	// Unprocessable is a well-formed request that could not be carried out
	// because of something outside the caller's input (a page that could not
	// be fetched for a link preview).
	Unprocessable
	// InsufficientStorage is a request the server could not keep, its
	// storage being full: nothing of it was saved, and the same request
	// succeeds once space is made.
	InsufficientStorage
)

// Error is an application error with a catalogue code.
type Error struct {
	Code    string
	Kind    Kind
	Message string
	Details map[string]any
	// RetryAfter is set on TooMany: seconds until the caller may retry.
	RetryAfter int
	Err        error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// New makes an error of kind with a catalogue code.
func New(kind Kind, code, message string) *Error {
	return &Error{Kind: kind, Code: code, Message: message}
}

// With returns a copy of e with one more detail.
func (e *Error) With(key string, value any) *Error {
	c := *e
	c.Details = map[string]any{}
	for k, v := range e.Details {
		c.Details[k] = v
	}
	c.Details[key] = value
	return &c
}

// Wrap returns a copy of e caused by err (kept for logs, never sent).
func (e *Error) Wrap(err error) *Error {
	c := *e
	c.Err = err
	return &c
}

// As finds an *Error in err's chain.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// MissingParameters is the spec's parametersMissingException (400), naming
// what is missing.
func MissingParameters(names ...string) *Error {
	sort.Strings(names)
	return New(BadInput, "parametersMissingException", "required parameters are missing").With("missing", names)
}

// Invalid is a validation failure (400) with a message per field.
func Invalid(fields map[string]string) *Error {
	return New(BadInput, "validationFailed", "some values are not valid").With("fields", fields)
}

// Fields collects validation messages per field.
type Fields map[string]string

// Add records msg for field unless the field already has one.
func (f Fields) Add(field, msg string) {
	if _, ok := f[field]; !ok {
		f[field] = msg
	}
}

// Err returns the validation error, or nil when nothing was added.
func (f Fields) Err() error {
	if len(f) == 0 {
		return nil
	}
	return Invalid(f)
}

// Errors that many use cases share.
var (
	// ErrAuthRequired is returned when a call needs a signed-in user.
	ErrAuthRequired = New(Unauthorized, "authenticationRequired", "sign in to continue")
	// ErrTokenExpired is returned for an access token past its expiry.
	ErrTokenExpired = New(Unauthorized, "tokenExpired", "the session has expired; sign in again")
	// ErrTokenInvalid is returned for an unknown or revoked access token.
	ErrTokenInvalid = New(Unauthorized, "tokenInvalid", "the session is not valid; sign in again")
	// ErrForbidden is returned when the caller may not do this.
	ErrForbidden = New(Forbidden, "forbidden", "you do not have access to this")
	// ErrNotFound is returned for an unknown resource.
	ErrNotFound = New(NotFound, "notFound", "not found")
	// ErrInvalidBody is returned for a body that is not the expected JSON.
	ErrInvalidBody = New(BadInput, "invalidBody", "the request body is not valid JSON of the expected shape")
	// ErrStorageFull is what a request gets when a disk the server writes
	// to is full (see DiskFull).
	ErrStorageFull = New(InsufficientStorage, "storageFull", "the server's storage is full, so nothing was saved; try again later")
)

// DiskFull reports whether err was caused by a full disk: a file's ENOSPC
// (the blob store's), or Postgres's disk_full (SQLSTATE 53100), read
// through the SQLState method of its errors so that this package needs no
// driver.
func DiskFull(err error) bool {
	if errors.Is(err, syscall.ENOSPC) {
		return true
	}
	var pg interface{ SQLState() string }
	return errors.As(err, &pg) && pg.SQLState() == "53100"
}
