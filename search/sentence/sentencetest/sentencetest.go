// Package sentencetest gives tests the sentence model that
// scripts/install-deps.sh sentencemodel installs (or AGORA_SENTENCE_MODEL's
// folder and AGORA_ONNXRUNTIME's library, as agora reads them): a test
// that needs it skips, saying so, where it is absent.
package sentencetest

import (
	"sync"
	"testing"

	"agora/search/sentence"
)

// Files names the model's files, or skips the test when one is missing.
func Files(t testing.TB) sentence.Files {
	t.Helper()
	f, why := sentence.TestFiles()
	if why != "" {
		t.Skip(why)
	}
	return f
}

var shared struct {
	once sync.Once
	enc  *sentence.Encoder
	err  error
}

// Encoder is one model for the test binary, loaded at first use (a few
// hundred milliseconds) and never closed: the process's end releases it.
func Encoder(t testing.TB) *sentence.Encoder {
	t.Helper()
	f := Files(t)
	shared.once.Do(func() { shared.enc, shared.err = sentence.Open(f) })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.enc
}
