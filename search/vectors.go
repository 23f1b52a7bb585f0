package search

import (
	"encoding/binary"
	"math"
)

// norm is a vector's length.
func norm(v []float32) float64 {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	return math.Sqrt(sum)
}

// unit is v scaled to length 1 (a copy), so that the cosine similarity of
// two of them is their dot product.
func unit(v []float32) []float32 {
	n := norm(v)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / n)
	}
	return out
}

// Cosine is the cosine similarity of two vectors of one length, 0 when
// either is all zeros.
func Cosine(a, b []float32) float64 {
	na, nb := norm(a), norm(b)
	if na == 0 || nb == 0 {
		return 0
	}
	return float64(dot(a, b)) / (na * nb)
}

// dot is the dot product of two vectors of one length.
func dot(a, b []float32) float32 {
	var sum float32
	for i := range a {
		sum += a[i] * b[i]
	}
	return sum
}

// encodeVector writes a vector as little-endian float32s, 4 bytes each.
func encodeVector(v []float32) []byte {
	out := make([]byte, 0, 4*len(v))
	for _, x := range v {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(x))
	}
	return out
}

// decodeVector reads what encodeVector wrote.
func decodeVector(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}
