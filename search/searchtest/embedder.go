package searchtest

import (
	"context"
	"hash/fnv"
	"math"
	"strings"
	"unicode"
)

// HashDimensions is the length of HashEmbedder's vectors.
const HashDimensions = 64

// HashEmbedder is a test double of search.Embedder, not a model: a text's
// vector counts its lower-cased words, each hashed into one of
// HashDimensions dimensions, scaled to length 1. Texts sharing words are
// near, texts sharing none are orthogonal (but for hash collisions), and
// the same text always gives the same vector, so tests can say which post
// is nearest. A text without words gives zeros.
type HashEmbedder struct{}

// Embed returns HashVector of each text.
func (HashEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = HashVector(t)
	}
	return out, nil
}

// HashVector is HashEmbedder's vector of one text.
func HashVector(text string) []float32 {
	v := make([]float32, HashDimensions)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, w := range words {
		h := fnv.New32a()
		_, _ = h.Write([]byte(w))
		v[h.Sum32()%HashDimensions]++
	}
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return v
	}
	n := float32(math.Sqrt(sum))
	for i := range v {
		v[i] /= n
	}
	return v
}
