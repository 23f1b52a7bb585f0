// Package nullable is the one type that tells a field sent as null from a
// field not sent at all: in an edit (PATCH), null clears a field and
// absence leaves it as it is.
package nullable

import (
	"bytes"
	"encoding/json"
)

// Field is a field of an edit: Set when it was sent, Value nil when it was
// sent as null.
type Field[T any] struct {
	Set   bool
	Value *T
}

// Of is a field sent with v.
func Of[T any](v T) Field[T] { return Field[T]{Set: true, Value: &v} }

// Null is a field sent as null.
func Null[T any]() Field[T] { return Field[T]{Set: true} }

// Cleared reports whether the field was sent as null.
func (f Field[T]) Cleared() bool { return f.Set && f.Value == nil }

// UnmarshalJSON records that the field was sent.
func (f *Field[T]) UnmarshalJSON(b []byte) error {
	f.Set = true
	if string(b) == "null" {
		f.Value = nil
		return nil
	}
	// The body's decoder refuses unknown fields; a decoder of its own here
	// would not know, so it is told again.
	var v T
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	f.Value = &v
	return nil
}
