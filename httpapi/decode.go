package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/paging"
)

// decode reads a JSON object body into dst, rejecting unknown fields, wrong
// types and trailing data, so that a typo in a field name is an error the
// client sees rather than a silent no-op.
func decode(c fiber.Ctx, dst any) error {
	return decodeJSON(c, dst, '{', "the body must be a JSON object")
}

// decodeArray is decode for a body that is a JSON array (of objects,
// checked as decode checks one).
func decodeArray(c fiber.Ctx, dst any) error {
	return decodeJSON(c, dst, '[', "the body must be a JSON array")
}

func decodeJSON(c fiber.Ctx, dst any, open byte, shape string) error {
	body := bytes.TrimSpace(c.Body())
	if len(body) == 0 || body[0] != open {
		return apperr.ErrInvalidBody.With("reason", shape)
	}
	if err := checkText(body); err != nil {
		return err
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
		return apperr.ErrInvalidBody.With("reason", "trailing data after the JSON value")
	}
	return nil
}

// checkText refuses what in a JSON text the decoder would accept but no
// stored value should hold:
//   - invalid UTF-8 and escaped lone surrogates ("\ud800"), which
//     encoding/json turns silently into U+FFFD, so that what is stored is
//     not what was sent;
//   - an escaped NUL character (\u0000), which Postgres text and jsonb
//     cannot hold (a raw one is not valid JSON);
//   - a key twice in one object, of which encoding/json keeps the last,
//     so that the client and the server may each read a different one.
func checkText(b []byte) error {
	if !utf8.Valid(b) {
		return apperr.ErrInvalidBody.With("reason", "the body is not valid UTF-8")
	}
	for i := 0; i+1 < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		i++ // the escaped character, which may be another backslash
		if b[i] != 'u' {
			continue
		}
		r, ok := hex4(b[i+1:])
		switch {
		case !ok:
			continue // malformed: the decoder reports it
		case r == 0:
			return apperr.ErrInvalidBody.With("reason", "strings must not contain the NUL character (\\u0000)")
		case utf16.IsSurrogate(r):
			low, ok := rune(0), false
			if r < 0xdc00 && i+6 < len(b) && b[i+5] == '\\' && b[i+6] == 'u' {
				low, ok = hex4(b[i+7:])
			}
			if !ok || low < 0xdc00 || low > 0xdfff {
				return apperr.ErrInvalidBody.With("reason", "strings must not contain a lone surrogate (\\ud800 to \\udfff outside a pair)")
			}
			i += 10 // the pair's second half
		default:
			i += 4
		}
	}
	if key, ok := duplicateKey(b); ok {
		return apperr.ErrInvalidBody.With("field", key).With("reason", "duplicate key")
	}
	return nil
}

// hex4 reads the four hexadecimal digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[:4]), 16, 16)
	return rune(n), err == nil
}

// duplicateKey finds a key that appears twice in one object of a JSON
// text, at any depth; a malformed text is left to the decoder to report.
func duplicateKey(b []byte) (string, bool) {
	type frame struct {
		keys    map[string]bool // nil for an array
		wantKey bool
	}
	var stack []*frame
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.keys != nil && top.wantKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
			} else {
				key, _ := tok.(string)
				if top.keys[key] {
					return key, true
				}
				top.keys[key] = true
				top.wantKey = false
				continue
			}
		} else {
			switch tok {
			case json.Delim('{'):
				stack = append(stack, &frame{keys: map[string]bool{}, wantKey: true})
				continue
			case json.Delim('['):
				stack = append(stack, &frame{})
				continue
			case json.Delim(']'):
				stack = stack[:len(stack)-1]
			}
		}
		// A value ended: its object, if any, wants a key next.
		if len(stack) == 0 {
			return "", false
		}
		if top := stack[len(stack)-1]; top.keys != nil {
			top.wantKey = true
		}
	}
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

// queryUUID reads the UUID query parameter name, nil when absent; a value
// that is not one goes into bad.
func queryUUID(c fiber.Ctx, name string, bad apperr.Fields) *uuid.UUID {
	v := c.Query(name)
	if v == "" {
		return nil
	}
	id, err := uuid.Parse(v)
	if err != nil {
		bad.Add(name, "must be a UUID")
		return nil
	}
	return &id
}
