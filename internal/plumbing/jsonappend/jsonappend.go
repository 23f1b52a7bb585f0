// Package jsonappend appends JSON values to a byte slice exactly as
// encoding/json's Marshal writes them (HTML-safe strings, compacted raw
// values), for the few answers whose encoding by reflection costs as much
// as reading them: the feed page (query/feed). Its tests hold each function
// to encoding/json's output.
package jsonappend

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

const hex = "0123456789abcdef"

// String appends s as a JSON string: with encoding/json's escapes, <, > and
// & among them, invalid UTF-8 as U+FFFD, and U+2028 and U+2029 escaped.
func String(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// Strings appends a list of strings; nil is null.
func Strings(b []byte, list []string) []byte {
	return List(b, list, String)
}

// List appends a list, each element as each writes it; nil is null.
func List[T any](b []byte, list []T, each func([]byte, T) []byte) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = each(b, v)
	}
	return append(b, ']')
}

// StringPtr appends *s, or null.
func StringPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return String(b, *s)
}

// Raw appends a json.RawMessage as a field of that type is written: nil is
// null, anything else compacted and HTML-escaped; what is not JSON is an
// error, as it is for encoding/json.
func Raw(b []byte, raw json.RawMessage) ([]byte, error) {
	if raw == nil || string(raw) == "null" {
		return append(b, "null"...), nil
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return b, err
	}
	w := bytes.NewBuffer(b)
	json.HTMLEscape(w, compact.Bytes())
	return w.Bytes(), nil
}

// UUID appends id in its canonical text form, as uuid.UUID marshals.
func UUID(b []byte, id [16]byte) []byte {
	b = append(b, '"')
	for i, c := range id {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b = append(b, '-')
		}
		b = append(b, hex[c>>4], hex[c&0xF])
	}
	return append(b, '"')
}

// UUIDPtr appends *id, or null.
func UUIDPtr[T ~[16]byte](b []byte, id *T) []byte {
	if id == nil {
		return append(b, "null"...)
	}
	return UUID(b, *id)
}

// Bool appends true or false.
func Bool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}
