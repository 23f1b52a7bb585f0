package main

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestModelsAreFresh fails when a migration changed and `make gen` was not run.
func TestModelsAreFresh(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "gen")
	if err := Generate(context.Background(), out); err != nil {
		t.Fatal(err)
	}
	committed := filepath.Join("..", "..", "internal", "plumbing", "db", "gen")
	want := readTree(t, out)
	got := readTree(t, committed)
	for name, body := range want {
		if got[name] != body {
			t.Errorf("internal/plumbing/db/gen/%s is stale or missing: run make gen", name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("internal/plumbing/db/gen/%s is no longer generated: run make gen", name)
		}
	}
}

func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files[rel] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
