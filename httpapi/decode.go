package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"agora/internal/apperr"
	"agora/internal/paging"
)

// decode reads a JSON object body into dst, rejecting unknown fields, wrong
// types and trailing data, so that a typo in a field name is an error the
// client sees rather than a silent no-op.
func decode(c fiber.Ctx, dst any) error {
	body := bytes.TrimSpace(c.Body())
	if len(body) == 0 || body[0] != '{' {
		return apperr.ErrInvalidBody.With("reason", "the body must be a JSON object")
	}
	if hasNUL(body) {
		// Postgres text and jsonb cannot hold it: refused here, not as a 500.
		return apperr.ErrInvalidBody.With("reason", "strings must not contain the NUL character (\\u0000)")
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

// hasNUL reports whether a JSON text holds an escaped NUL character
// (\u0000); a raw one is not valid JSON and the decoder refuses it.
func hasNUL(b []byte) bool {
	for i := 0; i+1 < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) && string(b[i+2:i+6]) == "0000" {
			return true
		}
		i++ // the escaped character, which may be another backslash
	}
	return false
}

// refuseNULQuery answers 400 validationFailed for a query parameter holding
// a NUL character, which no stored value can match and Postgres text
// refuses (a search for it was a 500).
func refuseNULQuery(c fiber.Ctx) error {
	bad := map[string]string{}
	for k, v := range c.Request().URI().QueryArgs().All() {
		if bytes.IndexByte(v, 0) >= 0 || bytes.IndexByte(k, 0) >= 0 {
			bad[strings.ReplaceAll(string(k), "\x00", "")] = "must not contain the NUL character"
		}
	}
	if len(bad) > 0 {
		return apperr.Invalid(bad)
	}
	return c.Next()
}

// queryInt reads the integer query parameter name, def when absent; a
// value that is not an integer goes into bad.
func queryInt(c fiber.Ctx, name string, def int, bad apperr.Fields) int {
	v := c.Query(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		bad.Add(name, "must be an integer")
		return def
	}
	return n
}

// pageRequest reads page and pageSize, 1 and def when absent: the one
// reader of a list's paging. What is not an integer goes into bad; the
// use case checks the range (paging.Request.Check), which is its own.
func pageRequest(c fiber.Ctx, def int, bad apperr.Fields) paging.Request {
	return paging.Request{Page: queryInt(c, "page", 1, bad), PageSize: queryInt(c, "pageSize", def, bad)}
}

// queryTime reads the RFC 3339 timestamp query parameter name, nil when
// absent; a value that is not one goes into bad.
func queryTime(c fiber.Ctx, name string, bad apperr.Fields) *time.Time {
	v := c.Query(name)
	if v == "" {
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		bad.Add(name, "must be an RFC 3339 timestamp")
		return nil
	}
	return &t
}
