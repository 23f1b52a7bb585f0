// Package dbtype holds column types that the jet models use where jet's
// defaults would hand the application a raw Postgres literal.
package dbtype

import (
	"database/sql/driver"
	"strings"

	"github.com/jackc/pgx/v5/pgtype"
)

var types = pgtype.NewMap()

// TextArray is a Postgres text[] column as a Go string slice.
type TextArray []string

// Scan reads a text[] value.
func (a *TextArray) Scan(src any) error {
	var s []string
	if err := types.SQLScanner(&s).Scan(src); err != nil {
		return err
	}
	*a = s
	return nil
}

// Value writes the array as a Postgres array literal, every element quoted
// so that commas, braces and quotes in tags survive.
func (a TextArray) Value() (driver.Value, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, s := range a {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		b.WriteString(arrayQuote.Replace(s))
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String(), nil
}

// arrayQuote escapes an element of a text[] literal; made once, since a
// Replacer builds its tables on first use.
var arrayQuote = strings.NewReplacer(`\`, `\\`, `"`, `\"`)
