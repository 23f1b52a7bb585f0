package ratelimit

import (
	"testing"
	"time"
)

func TestLimiterSlidingWindow(t *testing.T) {
	now := time.Unix(1000, 0)
	l := New(3, time.Minute)
	l.now = func() time.Time { return now }
	for i := 0; i < 3; i++ {
		if ok, _ := l.Allow("ip"); !ok {
			t.Fatalf("attempt %d refused", i+1)
		}
		now = now.Add(10 * time.Second)
	}
	ok, retry := l.Allow("ip")
	if ok {
		t.Fatal("fourth attempt within the window was allowed")
	}
	if retry != 30*time.Second {
		t.Fatalf("retry after %v, want 30s", retry)
	}
	if ok, _ := l.Allow("other"); !ok {
		t.Fatal("another key was limited")
	}
	now = now.Add(31 * time.Second)
	if ok, _ := l.Allow("ip"); !ok {
		t.Fatal("attempt after the oldest left the window was refused")
	}
	if Seconds(1500*time.Millisecond) != 2 || Seconds(0) != 1 {
		t.Fatal("Seconds rounds up to at least one")
	}
}
