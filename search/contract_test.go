package search_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"agora/search"
	"agora/search/searchtest"
)

func TestEmbeddedContract(t *testing.T) {
	searchtest.Run(t, func(t *testing.T) search.Store {
		s, err := search.OpenEmbedded(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// TestFakeMeiliContract runs the contract against the Meilisearch adapter
// talking to searchtest.FakeMeili, which follows Meilisearch 1.15's rules
// (tasks that fail, the userProvided embedder, matching strategies, the
// ten-word limit, maxTotalHits): no Meilisearch server runs here.
func TestFakeMeiliContract(t *testing.T) {
	searchtest.Run(t, func(t *testing.T) search.Store {
		_, srv := searchtest.NewFakeMeili(t)
		s, err := search.OpenMeili(context.Background(), search.MeiliConfig{URL: srv.URL, Prefix: "t_", PollInterval: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// TestMeiliContract runs the contract against the Meilisearch at MEILI_URL
// (with MEILI_MASTER_KEY). Each test gets indexes of its own, named after
// it and the time, so runs never see each other's documents.
func TestMeiliContract(t *testing.T) {
	url := os.Getenv("MEILI_URL")
	if url == "" {
		t.Skip("MEILI_URL is not set: no Meilisearch to run the contract against (the request-level tests pin the adapter)")
	}
	unsafe := regexp.MustCompile(`[^a-z0-9]+`)
	searchtest.Run(t, func(t *testing.T) search.Store {
		prefix := fmt.Sprintf("t%d_%s_", time.Now().UnixNano(), unsafe.ReplaceAllString(strings.ToLower(t.Name()), "_"))
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		s, err := search.OpenMeili(ctx, search.MeiliConfig{URL: url, Key: os.Getenv("MEILI_MASTER_KEY"), Prefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
