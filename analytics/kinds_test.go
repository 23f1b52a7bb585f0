package analytics_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"agora/analytics"
)

// TestKindsAreDistinctWords checks the vocabulary itself: a kind is a
// ClickHouse String the reports filter on, so two kinds spelled alike, or
// a kind an analyst could not type in a WHERE, would mix or hide facts.
func TestKindsAreDistinctWords(t *testing.T) {
	word := regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`)
	seen := map[string]bool{}
	for _, k := range analytics.Kinds() {
		if !word.MatchString(k) {
			t.Errorf("kind %q is not a lower-case word", k)
		}
		if seen[k] {
			t.Errorf("kind %q listed twice", k)
		}
		seen[k] = true
	}
	if len(seen) != 17 {
		t.Errorf("%d kinds, want the 17 the warehouse documents", len(seen))
	}
}

// TestKindsAreTheDocumentedOnes checks that README.md's table of kinds,
// which analysts read, names exactly the kinds the projection writes and
// the reports read, in the same order: a kind added in code and not in
// the table (or the reverse) fails here.
func TestKindsAreTheDocumentedOnes(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "- **Kinds**:")
	if !ok {
		t.Fatal("README.md has no Kinds table")
	}
	quoted := regexp.MustCompile("`([a-z_]+)`")
	var documented []string
	started := false
	for _, line := range strings.Split(table, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			if started {
				break
			}
			continue
		}
		started = true
		cells := strings.Split(line, "|")
		if len(cells) < 2 {
			continue
		}
		for _, m := range quoted.FindAllStringSubmatch(cells[1], -1) {
			documented = append(documented, m[1])
		}
	}
	if !slices.Equal(documented, analytics.Kinds()) {
		t.Errorf("README.md's kinds\n %q\nanalytics.Kinds\n %q", documented, analytics.Kinds())
	}
}
