// Package speechtest speaks known sentences for tests: Debian's flite with
// its slt voice, which pocketsphinx's US English model transcribes nearly
// word for word, resampled by sox to the 16 kHz mono PCM of package speech.
package speechtest

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Speak returns text spoken by flite's slt voice as 16 kHz mono PCM. The
// test fails (it does not skip) when flite or sox is missing: they are
// part of the speech component (scripts/install-deps.sh speech).
func Speak(tb testing.TB, text string) []int16 {
	tb.Helper()
	dir := tb.TempDir()
	wav := filepath.Join(dir, "spoken.wav")
	raw := filepath.Join(dir, "spoken.raw")
	if out, err := exec.Command("flite", "-voice", "slt", "-t", text, "-o", wav).CombinedOutput(); err != nil {
		tb.Fatalf("flite (scripts/install-deps.sh speech): %v: %s", err, out)
	}
	if out, err := exec.Command("sox", wav, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-L", "-t", "raw", raw).CombinedOutput(); err != nil {
		tb.Fatalf("sox: %v: %s", err, out)
	}
	b, err := os.ReadFile(raw)
	if err != nil {
		tb.Fatal(err)
	}
	pcm := make([]int16, len(b)/2)
	for i := range pcm {
		pcm[i] = int16(binary.LittleEndian.Uint16(b[2*i:]))
	}
	return pcm
}

// Silence is d milliseconds of silence at 16 kHz.
func Silence(ms int) []int16 { return make([]int16, 16*ms) }
