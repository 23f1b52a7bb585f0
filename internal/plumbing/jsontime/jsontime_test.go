package jsontime

import (
	"encoding/json"
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
