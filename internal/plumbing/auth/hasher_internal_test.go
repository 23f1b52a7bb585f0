package auth

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestHasherBoundsConcurrency: with every slot taken, a hash waits, and gives
// up when its caller's context ends instead of piling up memory.
func TestHasherBoundsConcurrency(t *testing.T) {
	h := NewHasher(1)
	h.slots <- struct{}{} // the only slot is busy
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := h.Hash(ctx, "waiting for a slot"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Hash with no free slot = %v, want deadline exceeded", err)
	}
	if _, err := h.Verify(ctx, "pw", "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2g"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Verify with no free slot = %v, want deadline exceeded", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Fatal("waiting did not stop at the deadline")
	}
	<-h.slots
	if _, err := h.Hash(context.Background(), "slot free again"); err != nil {
		t.Fatal(err)
	}
}
