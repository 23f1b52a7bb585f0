package answer

import (
	"strings"
	"testing"

	"agora/search"
)

// TestCiterAcrossPieces: a marker split over a model's tokens is
// renumbered whole, one naming no post goes with the space before it, and
// a bracket that is no marker is given out as it is.
func TestCiterAcrossPieces(t *testing.T) {
	posts := []search.Post{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	c := newCiter(posts)
	var out strings.Builder
	for _, p := range []string{"Pairings last six weeks [", "3", "], with a check-in ", "[9", "] at week [", "two] [1", ", 3]."} {
		out.WriteString(c.write(p))
	}
	out.WriteString(c.flush())
	res := c.result(out.String())
	if want := "Pairings last six weeks [1], with a check-in at week [two] [2, 1]."; res.Answer != want {
		t.Errorf("answer %q, want %q", res.Answer, want)
	}
	if strings.Join(res.Citations, ",") != "c,a" || res.Sources[0].N != 1 || res.Sources[0].ID != "c" {
		t.Errorf("citations %v sources %+v", res.Citations, res.Sources)
	}
}
