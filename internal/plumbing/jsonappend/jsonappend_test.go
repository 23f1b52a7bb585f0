package jsonappend_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/google/uuid"

	"agora/internal/plumbing/jsonappend"
)

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tricky are strings encoding/json escapes in every way it has.
var tricky = []string{"", "plain text", `"quoted" \ back\slash`, "<b>bold</b> & co", "\b\f\n\r\t\x00\x01\x1f\x7f",
	"line\u2028separator\u2029paragraph", "invalid \xff\xfe utf-8 \xc3", "truncated \xe2\x82", "héllo wörld ✓ 日本 🎉",
	"\u00e9\u0301", "ends with \\"}

func TestStringIsMarshal(t *testing.T) {
	for _, s := range tricky {
		if got, want := string(jsonappend.String(nil, s)), marshal(t, s); got != want {
			t.Errorf("String(%q) = %s, want %s", s, got, want)
		}
	}
	// Random bytes, most of them not UTF-8.
	r := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		s := string(b)
		if got, want := string(jsonappend.String(nil, s)), marshal(t, s); got != want {
			t.Fatalf("String(%q) = %s, want %s", s, got, want)
		}
	}
}

func TestListsAndPointersAreMarshal(t *testing.T) {
	for _, list := range [][]string{nil, {}, {"a"}, tricky} {
		if got, want := string(jsonappend.Strings(nil, list)), marshal(t, list); got != want {
			t.Errorf("Strings(%q) = %s, want %s", list, got, want)
		}
	}
	s := "<x>"
	for _, p := range []*string{nil, &s} {
		if got, want := string(jsonappend.StringPtr(nil, p)), marshal(t, p); got != want {
			t.Errorf("StringPtr = %s, want %s", got, want)
		}
	}
	id := uuid.MustParse("01a23eac-cf15-749c-b433-54be1b04279e")
	if got, want := string(jsonappend.UUID(nil, id)), marshal(t, id); got != want {
		t.Errorf("UUID = %s, want %s", got, want)
	}
	for _, p := range []*uuid.UUID{nil, &id} {
		if got, want := string(jsonappend.UUIDPtr(nil, p)), marshal(t, p); got != want {
			t.Errorf("UUIDPtr = %s, want %s", got, want)
		}
	}
	for _, v := range []bool{true, false} {
		if got, want := string(jsonappend.Bool(nil, v)), marshal(t, v); got != want {
			t.Errorf("Bool = %s, want %s", got, want)
		}
	}
}

func TestRawIsMarshal(t *testing.T) {
	for _, raw := range []json.RawMessage{nil, json.RawMessage("null"), json.RawMessage(`{"url": "https://x/<a>&b", "n": [1, 2 ,3]}`),
		json.RawMessage(" \"line\u2028\" "), json.RawMessage(`{"size":  12,	"name":"a\u003cb"}`)} {
		got, err := jsonappend.Raw([]byte("prefix"), raw)
		if err != nil {
			t.Fatalf("Raw(%s): %v", raw, err)
		}
		if want := "prefix" + marshal(t, raw); string(got) != want {
			t.Errorf("Raw(%s) = %s, want %s", raw, got, want)
		}
	}
	for _, bad := range []json.RawMessage{{}, json.RawMessage(`{"a":`), json.RawMessage("nul")} {
		if _, err := jsonappend.Raw(nil, bad); err == nil {
			t.Errorf("Raw(%q) took what is not JSON", bad)
		}
		if _, err := json.Marshal(bad); err == nil {
			t.Errorf("json.Marshal(%q) took what is not JSON", bad)
		}
	}
}
