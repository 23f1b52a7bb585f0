package demo

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/seed"
)

// TestContentGaps: a forum's gaps become one row each, normalized as the
// AI search records them, and two that normalize alike, or one with no
// words, fail with the file and line of the gap.
func TestContentGaps(t *testing.T) {
	day := time.Date(2025, 3, 20, 0, 0, 0, 0, time.UTC)
	series := uuid.New()
	gap := func(line int, question string, asked int) seed.Gap {
		return seed.Gap{Pos: fmt.Sprintf("ml.txt:%d", line), At: seed.Ago{Days: 2, Hour: 9, Minute: 30}, Asked: asked, Question: question}
	}

	b := builder{day: day}
	if err := b.contentGaps(series, []seed.Gap{gap(1, "How do you quantize a model?", 3), gap(5, "What is LoRA?", 1)}); err != nil {
		t.Fatal(err)
	}
	last := time.Date(2025, 3, 18, 9, 30, 0, 0, time.UTC)
	if len(b.rows.gaps) != 2 {
		t.Fatalf("%d rows, want 2", len(b.rows.gaps))
	}
	g := b.rows.gaps[0]
	if g.SeriesID != series || g.Normalized != "how do you quantize a model" || g.Question != "How do you quantize a model?" ||
		g.AskedCount != 3 || !g.LastAskedOn.Equal(last) || !g.FirstAskedOn.Equal(last.AddDate(0, 0, -4)) {
		t.Errorf("row %+v", g)
	}
	if g := b.rows.gaps[1]; !g.FirstAskedOn.Equal(g.LastAskedOn) {
		t.Errorf("a gap asked once: first %v, last %v", g.FirstAskedOn, g.LastAskedOn)
	}

	for _, c := range []struct {
		name string
		gaps []seed.Gap
		want string
	}{
		{"normalized alike", []seed.Gap{gap(1, "What is LoRA?", 1), gap(5, "what is  LoRA", 2)}, "ml.txt:5: the same question as the gap at ml.txt:1"},
		{"no words", []seed.Gap{gap(3, "?!", 1)}, "ml.txt:3: the question has no letters or digits"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := builder{day: day}
			if err := b.contentGaps(series, c.gaps); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error = %v, want one containing %q", err, c.want)
			}
		})
	}
}
