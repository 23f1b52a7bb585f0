package app_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"agora/app"
	"agora/internal/plumbing/config"
	"agora/search/searchtest"
)

// The composition root chooses the search adapter: Meilisearch with
// MEILI_URL, the embedded engine otherwise.
func TestOpenSearchChoosesTheAdapterFromConfig(t *testing.T) {
	f, srv := searchtest.NewFakeMeili(t)
	c := config.Default()
	c.DataDir = t.TempDir()
	c.Search = config.SearchConfig{MeiliURL: srv.URL, MeiliMasterKey: "k"}
	s, err := app.OpenSearch(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	rs := f.Take()
	if len(rs) == 0 || rs[1].Path != "/indexes/agora_members/settings" || rs[1].Auth != "Bearer k" {
		t.Errorf("with MEILI_URL: requests %q, want Meilisearch's agora_ indexes with the key", searchtest.Paths(rs))
	}
	if _, err := os.Stat(c.SearchDir()); !os.IsNotExist(err) {
		t.Errorf("with MEILI_URL the embedded folder exists: %v", err)
	}

	c.Search = config.SearchConfig{}
	s, err = app.OpenSearch(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, name := range []string{"members", "hashtags", "posts", "peers"} {
		if _, err := os.Stat(filepath.Join(c.SearchDir(), name+"-v1.bleve")); err != nil {
			t.Errorf("without MEILI_URL: %v", err)
		}
	}
	if rs := f.Take(); len(rs) != 0 {
		t.Errorf("without MEILI_URL, Meilisearch got %q", searchtest.Paths(rs))
	}
}
