package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/gofiber/fiber/v3"

	"agora/internal/apperr"
)

// decode reads a JSON object body into dst, rejecting unknown fields, wrong
// types and trailing data, so that a typo in a field name is an error the
// client sees rather than a silent no-op.
func decode(c fiber.Ctx, dst any) error {
	body := bytes.TrimSpace(c.Body())
	if len(body) == 0 || body[0] != '{' {
		return apperr.ErrInvalidBody.With("reason", "the body must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &te):
			// Field is a Go path ("personBody.bio") for embedded structs; the
			// bodies are flat, so the last part is the JSON name.
			field := te.Field[strings.LastIndex(te.Field, ".")+1:]
			return apperr.ErrInvalidBody.With("field", field).With("expected", te.Type.String())
		case errors.As(err, &se):
			return apperr.ErrInvalidBody.With("reason", "malformed JSON")
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return apperr.ErrInvalidBody.With("field", strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)).
				With("reason", "unknown field")
		default:
			return apperr.ErrInvalidBody.With("reason", err.Error())
		}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return apperr.ErrInvalidBody.With("reason", "trailing data after the JSON object")
	}
	return nil
}

// Nullable is a JSON field that tells "absent" from "null" from a value,
// for PATCH bodies where null clears a field.
type Nullable[T any] struct {
	Set   bool
	Value *T
}

// UnmarshalJSON records that the field was sent.
func (n *Nullable[T]) UnmarshalJSON(b []byte) error {
	n.Set = true
	if string(b) == "null" {
		n.Value = nil
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	n.Value = &v
	return nil
}
