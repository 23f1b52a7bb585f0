// Package nullable is the one type that tells a field sent as null from a
// field not sent at all: in an edit (PATCH), null clears a field and
// absence leaves it as it is.
package nullable

import "encoding/json"

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
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	f.Value = &v
	return nil
}
