package change

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/google/uuid"
)

// ErrNoColumn means a row has no such column.
var ErrNoColumn = errors.New("change: no such column")

// ErrNull means a column is NULL where a value was asked for.
var ErrNull = errors.New("change: column is null")

// Unavailable is the placeholder Debezium writes for an unchanged TOASTed
// column whose value the change does not carry (a table without REPLICA
// IDENTITY FULL).
const Unavailable = "__debezium_unavailable_value"

// Row is one row image: column name to its value as Debezium encodes it.
type Row map[string]json.RawMessage

func (r Row) raw(col string) (json.RawMessage, error) {
	v, ok := r[col]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrNoColumn, col)
	}
	if len(v) == 0 || bytes.Equal(v, []byte("null")) {
		return nil, fmt.Errorf("%w: %s", ErrNull, col)
	}
	return v, nil
}

// Has reports whether the row has column col (NULL or not).
func (r Row) Has(col string) bool { _, ok := r[col]; return ok }

// IsNull reports whether col is absent or NULL.
func (r Row) IsNull(col string) bool {
	v, ok := r[col]
	return !ok || len(v) == 0 || bytes.Equal(v, []byte("null"))
}

// String returns a text, varchar, uuid, jsonb, numeric or timestamptz
// column as the string Debezium sent.
func (r Row) String(col string) (string, error) {
	v, err := r.raw(col)
	if err != nil {
		return "", err
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", fmt.Errorf("change: %s: %w", col, err)
	}
	return s, nil
}

// Int64 returns an integer column.
func (r Row) Int64(col string) (int64, error) {
	v, err := r.raw(col)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("change: %s: %w", col, err)
	}
	return n, nil
}

// Float64 returns a real or double precision column.
func (r Row) Float64(col string) (float64, error) {
	v, err := r.raw(col)
	if err != nil {
		return 0, err
	}
	return parseFloat(v)
}

// Bool returns a boolean column.
func (r Row) Bool(col string) (bool, error) {
	v, err := r.raw(col)
	if err != nil {
		return false, err
	}
	var b bool
	if err := json.Unmarshal(v, &b); err != nil {
		return false, fmt.Errorf("change: %s: %w", col, err)
	}
	return b, nil
}

// UUID returns a uuid column (io.debezium.data.Uuid, a string).
func (r Row) UUID(col string) (uuid.UUID, error) {
	s, err := r.String(col)
	if err != nil {
		return uuid.UUID{}, err
	}
	return uuid.Parse(s)
}

// Time returns a timestamptz column (io.debezium.time.ZonedTimestamp, an
// ISO 8601 string) or a timestamp column (io.debezium.time.MicroTimestamp,
// microseconds since the epoch, read as UTC), in UTC.
func (r Row) Time(col string) (time.Time, error) {
	v, err := r.raw(col)
	if err != nil {
		return time.Time{}, err
	}
	t, err := parseTime(v)
	if err != nil {
		return time.Time{}, fmt.Errorf("change: %s: %w", col, err)
	}
	return t, nil
}

// Decimal returns a numeric column as its exact decimal string
// (decimal.handling.mode=string).
func (r Row) Decimal(col string) (string, error) {
	v, err := r.raw(col)
	if err != nil {
		return "", err
	}
	if v[0] == '"' {
		return r.String(col)
	}
	return string(v), nil // decimal.handling.mode=double
}

// JSON returns a json or jsonb column (io.debezium.data.Json, a string
// holding the document) as the document itself.
func (r Row) JSON(col string) (json.RawMessage, error) {
	s, err := r.String(col)
	if err != nil {
		return nil, err
	}
	if !json.Valid([]byte(s)) {
		return nil, fmt.Errorf("change: %s: not a JSON document", col)
	}
	return json.RawMessage(s), nil
}

// Strings returns a text[] column.
func (r Row) Strings(col string) ([]string, error) {
	v, err := r.raw(col)
	if err != nil {
		return nil, err
	}
	var s []string
	if err := json.Unmarshal(v, &s); err != nil {
		return nil, fmt.Errorf("change: %s: %w", col, err)
	}
	return s, nil
}

// Bytes returns a bytea column (binary.handling.mode=base64).
func (r Row) Bytes(col string) ([]byte, error) {
	s, err := r.String(col)
	if err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(s)
}

func parseFloat(v json.RawMessage) (float64, error) {
	if v[0] == '"' { // NaN and infinities are sent as strings
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return 0, err
		}
		return strconv.ParseFloat(s, 64)
	}
	return strconv.ParseFloat(string(v), 64)
}

func parseTime(v json.RawMessage) (time.Time, error) {
	if v[0] != '"' {
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return time.Time{}, err
		}
		return time.UnixMicro(n).UTC(), nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return time.Time{}, err
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, err
	}
	return t.UTC(), nil
}

var (
	timeType = reflect.TypeOf(time.Time{})
	uuidType = reflect.TypeOf(uuid.UUID{})
	rawType  = reflect.TypeOf(json.RawMessage{})
)

// Scan fills the struct dst points to from the row. A field takes the
// column named by its `cdc:"name"` tag, else its name in snake case (ID →
// id, CreatedOn → created_on), so jet's generated models scan as they are.
// Supported field types: string, bool, the integer and float kinds,
// time.Time, uuid.UUID, json.RawMessage (json/jsonb), []byte (bytea),
// []string and other slices of these (arrays), a named type of one of
// those, and pointers to any of them for nullable columns. Columns the row
// lacks leave their field untouched; a NULL into a non-pointer is an error.
func (r Row) Scan(dst any) error {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return errors.New("change: Scan needs a pointer to a struct")
	}
	sv := rv.Elem()
	st := sv.Type()
	for i := 0; i < st.NumField(); i++ {
		f := st.Field(i)
		if !f.IsExported() {
			continue
		}
		col := f.Tag.Get("cdc")
		if col == "-" {
			continue
		}
		if col == "" {
			col = snake(f.Name)
		}
		v, ok := r[col]
		if !ok {
			continue
		}
		if err := setValue(sv.Field(i), v); err != nil {
			return fmt.Errorf("change: column %s into %s: %w", col, f.Name, err)
		}
	}
	return nil
}

func setValue(fv reflect.Value, v json.RawMessage) error {
	null := len(v) == 0 || bytes.Equal(v, []byte("null"))
	if fv.Kind() == reflect.Pointer {
		if null {
			fv.Set(reflect.Zero(fv.Type()))
			return nil
		}
		p := reflect.New(fv.Type().Elem())
		if err := setValue(p.Elem(), v); err != nil {
			return err
		}
		fv.Set(p)
		return nil
	}
	if null {
		if fv.Kind() == reflect.Slice {
			fv.Set(reflect.Zero(fv.Type()))
			return nil
		}
		return ErrNull
	}
	switch {
	case fv.Type() == timeType:
		t, err := parseTime(v)
		if err != nil {
			return err
		}
		fv.Set(reflect.ValueOf(t))
		return nil
	case fv.Type() == uuidType:
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return err
		}
		u, err := uuid.Parse(s)
		if err != nil {
			return err
		}
		fv.Set(reflect.ValueOf(u))
		return nil
	case fv.Type() == rawType || (fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.Uint8 && fv.Type().Name() == "RawMessage"):
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return err
		}
		fv.SetBytes([]byte(s))
		return nil
	}
	switch fv.Kind() {
	case reflect.String:
		var s string
		if v[0] != '"' { // a number or bool into a string field
			s = string(v)
		} else if err := json.Unmarshal(v, &s); err != nil {
			return err
		}
		fv.SetString(s)
	case reflect.Bool:
		var b bool
		if err := json.Unmarshal(v, &b); err != nil {
			return err
		}
		fv.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(strings.Trim(string(v), `"`), 10, 64)
		if err != nil {
			return err
		}
		if fv.OverflowInt(n) {
			return fmt.Errorf("%d overflows %s", n, fv.Type())
		}
		fv.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(strings.Trim(string(v), `"`), 10, 64)
		if err != nil {
			return err
		}
		fv.SetUint(n)
	case reflect.Float32, reflect.Float64:
		x, err := parseFloat(v)
		if err != nil {
			return err
		}
		fv.SetFloat(x)
	case reflect.Slice:
		if fv.Type().Elem().Kind() == reflect.Uint8 { // bytea, base64
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return err
			}
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return err
			}
			fv.SetBytes(b)
			return nil
		}
		var elems []json.RawMessage
		if err := json.Unmarshal(v, &elems); err != nil {
			return err
		}
		out := reflect.MakeSlice(fv.Type(), len(elems), len(elems))
		for i, e := range elems {
			if err := setValue(out.Index(i), e); err != nil {
				return fmt.Errorf("element %d: %w", i, err)
			}
		}
		fv.Set(out)
	default:
		return fmt.Errorf("unsupported field type %s", fv.Type())
	}
	return nil
}

// snake turns a Go field name into a column name: ID → id, CreatedOn →
// created_on, UserID → user_id, HTTPServer → http_server.
func snake(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, c := range rs {
		if unicode.IsUpper(c) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(c))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}
