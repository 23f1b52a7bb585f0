package jsontime

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"
)

func TestWireForm(t *testing.T) {
	at := time.Date(2026, 11, 22, 9, 5, 7, 123456789, time.FixedZone("CET", 3600))
	b, err := json.Marshal(struct {
		At  Time  `json:"at"`
		Nil *Time `json:"nil"`
	}{At: Of(at)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"at":"2026-11-22T08:05:07.123Z","nil":null}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	var back struct{ At Time }
	if err := json.Unmarshal([]byte(`{"At":"2026-11-22T09:05:07.123+01:00"}`), &back); err != nil {
		t.Fatal(err)
	}
	if !time.Time(back.At).Equal(at.Truncate(time.Millisecond)) {
		t.Fatalf("read back %v, want %v", time.Time(back.At), at.Truncate(time.Millisecond))
	}
	if err := json.Unmarshal([]byte(`{"At":"yesterday"}`), &back); err == nil {
		t.Fatal("a timestamp that is not RFC 3339 was accepted")
	}
}

// TestAppendJSONAsLayout holds the digit-by-digit form to AppendFormat's,
// over instants spread across the years Postgres keeps, in zones either
// side of UTC.
func TestAppendJSONAsLayout(t *testing.T) {
	zones := []*time.Location{time.UTC, time.FixedZone("east", 14*3600), time.FixedZone("west", -(9*3600 + 30*60))}
	from, to := time.Date(-50, 1, 1, 0, 0, 0, 0, time.UTC).Unix(), time.Date(10050, 12, 31, 23, 59, 59, 0, time.UTC).Unix()
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		at := time.Unix(from+r.Int64N(to-from), r.Int64N(1e9)).In(zones[i%len(zones)])
		if i < 3 {
			at = []time.Time{time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC), time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(1999, 12, 31, 23, 59, 59, 0, zones[1])}[i]
		}
		want := `"` + at.UTC().Format(Layout) + `"`
		if got := string(Of(at).AppendJSON(nil)); got != want {
			t.Fatalf("%v: got %s, want %s", at, got, want)
		}
	}
}
