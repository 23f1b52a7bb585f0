package message_test

import (
	"testing"
	"time"

	"agora/internal/rules/message"
)

func TestAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC)
	for _, c := range []struct {
		name string
		last *time.Time
		want time.Time
	}{
		{"the channel's first message", nil, now},
		{"after the latest", ptr(now.Add(-time.Second)), now},
		{"in the latest's millisecond", ptr(now), now.Add(time.Millisecond)},
		{"behind the latest (a clock set back)", ptr(now.Add(time.Second)), now.Add(time.Second + time.Millisecond)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := message.After(c.last, now); !got.Equal(c.want) {
				t.Errorf("After = %v, want %v", got, c.want)
			}
		})
	}
}
