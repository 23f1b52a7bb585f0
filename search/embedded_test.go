package search_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"agora/search"
)

func TestEmbeddedKeepsItsIndexesOnDisk(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	s, err := search.OpenEmbedded(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Posts().Upsert(ctx, search.Post{ID: "p1", ChannelID: "c1", Text: "durable words"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "posts-v1.bleve")); err != nil {
		t.Fatalf("index folder: %v", err)
	}

	s, err = search.OpenEmbedded(dir)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	r, err := s.Posts().Search(ctx, search.Query{Text: "durable", Filter: search.Filter{search.ReadableBy("u", "c1")}})
	if err != nil || len(r.Hits) != 1 || r.Hits[0].Text != "durable words" {
		t.Fatalf("after reopen: %+v, %v", r, err)
	}
}

func TestEmbeddedIsSafeForConcurrentUse(t *testing.T) {
	s, err := search.OpenEmbedded(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range 10 {
				id := fmt.Sprintf("m%d-%d", w, i)
				errs <- s.Members().Upsert(ctx, search.Member{ID: id, FirstName: "Writer", LastName: id})
			}
		}()
		go func() {
			defer wg.Done()
			for range 10 {
				_, err := s.Members().Search(ctx, search.Query{Text: "writer", Limit: 5})
				errs <- err
			}
		}()
	}
	wg.Add(1)
	go func() { defer wg.Done(); errs <- s.Hashtags().Rebuild(ctx) }()
	go func() { wg.Wait(); close(errs) }()
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	r, err := s.Members().Search(ctx, search.Query{Text: "writer"})
	if err != nil || r.Total != 40 {
		t.Fatalf("after concurrent writes: total %d, %v; want 40", r.Total, err)
	}
}

func TestEmbeddedClosedStoreRefuses(t *testing.T) {
	s, err := search.OpenEmbedded(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := s.Members().Search(context.Background(), search.Query{}); err == nil {
		t.Fatal("search of a closed store succeeded")
	}
	if err := s.Members().Rebuild(context.Background()); err == nil {
		t.Fatal("rebuild of a closed store succeeded")
	}
}
