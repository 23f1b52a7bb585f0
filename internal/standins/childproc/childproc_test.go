package childproc

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCachedFile(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	want := filepath.Join(cache, "agora", "wordvectors-1.1.0", "wordvectors.v1.bin")
	if p, ok := CachedFile("wordvectors", "1.1.0", "wordvectors.v1.bin"); ok || p != want {
		t.Errorf("before install: %q, %v; want %q, false", p, ok, want)
	}
	if err := os.MkdirAll(filepath.Dir(want), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(want, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, ok := CachedFile("wordvectors", "1.1.0", "wordvectors.v1.bin"); !ok || p != want {
		t.Errorf("after install: %q, %v; want %q, true", p, ok, want)
	}
}
