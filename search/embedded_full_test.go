package search_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"agora/search"
)

// TestEmbeddedFullDisk writes posts into an index on a small disk that a
// growing file fills until the disk refuses a batch: that one is
// unavailable (the search projection waits and writes it again), the next
// writes do not meet a broken index, and once space returns every post
// acknowledged is there and new ones are taken.
func TestEmbeddedFullDisk(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=8m", "agora-search-test", dir).CombinedOutput(); err != nil {
		t.Skipf("a small disk of its own needs mount -t tmpfs, which failed here (%v: %s)", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", dir).Run() })
	ctx := context.Background()
	s, err := search.OpenEmbedded(filepath.Join(dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close() //nolint:errcheck
	ballast, err := os.Create(filepath.Join(dir, "ballast"))
	if err != nil {
		t.Fatal(err)
	}
	post := func(id string) search.Post {
		return search.Post{ID: id, ChannelID: "c1", Text: strings.Repeat(id+" words ", 40)}
	}
	var acked []string
	for i := 0; ; i++ {
		if i%20 == 0 {
			_, _ = ballast.Write(make([]byte, 1<<20)) // until it cannot
		}
		id := fmt.Sprint("p", i)
		err := s.Posts().Upsert(ctx, post(id))
		if err == nil {
			acked = append(acked, id)
			continue
		}
		if !errors.Is(err, search.ErrUnavailable) {
			t.Fatalf("a write on the full disk: %v, want ErrUnavailable", err)
		}
		t.Logf("the disk refused post %d: %v", i, err)
		break
	}
	// Still full: a write may be refused again, but not panic.
	for i := range 3 {
		if err := s.Posts().Upsert(ctx, post(fmt.Sprint("full", i))); err == nil {
			acked = append(acked, fmt.Sprint("full", i))
		} else if !errors.Is(err, search.ErrUnavailable) {
			t.Fatalf("a write on the full disk: %v, want ErrUnavailable", err)
		}
	}
	// Space returns (an open file keeps its blocks).
	_ = ballast.Close()
	if err := os.Remove(ballast.Name()); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := s.Posts().Upsert(ctx, post(fmt.Sprint("after", i))); err != nil {
			t.Fatalf("a write once space returned: %v", err)
		}
		acked = append(acked, fmt.Sprint("after", i))
	}
	have := map[string]bool{}
	if err := s.Posts().All(ctx, func(p search.Post) error { have[p.ID] = true; return nil }); err != nil {
		t.Fatal(err)
	}
	for _, id := range acked {
		if !have[id] {
			t.Errorf("post %s was acknowledged and is not in the index", id)
		}
	}
	t.Logf("%d posts acknowledged, all in the index", len(acked))
}
