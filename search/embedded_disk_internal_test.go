package search

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"testing"
)

// TestFullDiskIsUnavailable: a write the disk refused is ErrUnavailable,
// whether Bleve kept the error or only its text; other failures are not.
func TestFullDiskIsUnavailable(t *testing.T) {
	enospc := &os.PathError{Op: "write", Path: "store/0000000000dd.zap", Err: syscall.ENOSPC}
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("segment: %s persist err: %v", "store/0000000000dd.zap", enospc), true},
		{fmt.Errorf("persist: %w", enospc), true},
		{fmt.Errorf("segment: %s persist err: %v", "store/0000000000dd.zap", &os.PathError{Op: "write", Path: "x", Err: syscall.EIO}), false},
		{errors.New("batch too large"), false},
	} {
		err := diskFull(tc.err)
		if got := errors.Is(err, ErrUnavailable); got != tc.want {
			t.Errorf("%v: unavailable %v, want %v", tc.err, got, tc.want)
		}
		if !errors.Is(err, tc.err) {
			t.Errorf("%v: the error itself is lost", tc.err)
		}
	}
}
