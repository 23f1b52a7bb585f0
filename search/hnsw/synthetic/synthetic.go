// Package synthetic makes clustered unit vectors that stand in for
// sentence embeddings, for the nearest-neighbour index's tests and
// benchmark. Uniform random vectors would be the wrong test: in 384
// dimensions they are all nearly orthogonal, no neighbour is much nearer
// than another, and no graph index finds them well, while real embeddings
// gather by topic and vary within a topic along a few directions.
package synthetic

import (
	"math"
	"math/rand/v2"
)

// Model is how the vectors are drawn: Clusters topics, each a random unit
// centre; a vector is its topic's centre, plus a move along Directions
// random directions of the topic (of length about Spread), plus noise in
// every dimension (of length about Noise), scaled to unit length. With
// Spread 0.8 and Noise 0.35 two vectors of one topic have a cosine of
// about 0.6 and of two topics about 0, near what a sentence model gives
// for posts on one subject and on unrelated ones.
type Model struct {
	Dim, Clusters, Directions int
	Spread, Noise             float64

	centres [][]float64
	dirs    [][][]float64
}

// Default is the model of the tests and the benchmark at dim dimensions.
func Default(dim, clusters int) *Model {
	return &Model{Dim: dim, Clusters: clusters, Directions: 16, Spread: 0.8, Noise: 0.35}
}

// Init draws the topics from the seeded generator.
func (m *Model) Init(rng *rand.Rand) {
	m.centres = make([][]float64, m.Clusters)
	m.dirs = make([][][]float64, m.Clusters)
	for c := range m.Clusters {
		m.centres[c] = gaussianUnit(rng, m.Dim)
		m.dirs[c] = make([][]float64, m.Directions)
		for d := range m.Directions {
			m.dirs[c][d] = gaussianUnit(rng, m.Dim)
		}
	}
}

// Vector draws one vector of a random topic.
func (m *Model) Vector(rng *rand.Rand) []float32 {
	c := rng.IntN(m.Clusters)
	x := make([]float64, m.Dim)
	copy(x, m.centres[c])
	a := m.Spread / math.Sqrt(float64(m.Directions))
	for _, d := range m.dirs[c] {
		g := rng.NormFloat64() * a
		for i := range x {
			x[i] += g * d[i]
		}
	}
	b := m.Noise / math.Sqrt(float64(m.Dim))
	for i := range x {
		x[i] += rng.NormFloat64() * b
	}
	return unit(x)
}

func gaussianUnit(rng *rand.Rand, dim int) []float64 {
	x := make([]float64, dim)
	var n float64
	for i := range x {
		x[i] = rng.NormFloat64()
		n += x[i] * x[i]
	}
	n = math.Sqrt(n)
	for i := range x {
		x[i] /= n
	}
	return x
}

func unit(x []float64) []float32 {
	var n float64
	for _, v := range x {
		n += v * v
	}
	n = math.Sqrt(n)
	out := make([]float32, len(x))
	for i, v := range x {
		out[i] = float32(v / n)
	}
	return out
}
