package speech_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"agora/internal/adapters/speech"
	"agora/internal/adapters/speech/speechtest"
)

var (
	recOnce sync.Once
	rec     *speech.Recognizer
	recErr  error
)

func recognizer(t *testing.T) *speech.Recognizer {
	t.Helper()
	recOnce.Do(func() { rec, recErr = speech.NewRecognizer("") })
	if recErr != nil {
		t.Fatal(recErr)
	}
	return rec
}

// missing reports the key words missing from text.
func missing(text string, words ...string) []string {
	have := map[string]bool{}
	for _, w := range strings.Fields(text) {
		have[w] = true
	}
	var out []string
	for _, w := range words {
		if !have[w] {
			out = append(out, w)
		}
	}
	return out
}

func TestRecognizerTranscribesSpokenSentences(t *testing.T) {
	r := recognizer(t)
	for _, c := range []struct {
		text string
		keys []string
	}{
		{"The capstone proposal is due on March fourteenth.", []string{"capstone", "proposal", "march", "fourteenth"}},
		{"The budget review happens next week.", []string{"budget", "review", "next", "week"}},
	} {
		got, err := r.Transcribe(speechtest.Speak(t, c.text))
		if err != nil {
			t.Fatal(err)
		}
		if m := missing(got, c.keys...); len(m) > 0 {
			t.Errorf("%q heard as %q: missing %v", c.text, got, m)
		}
	}
	if got, err := r.Transcribe(speechtest.Silence(1000)); err != nil || strings.TrimSpace(got) != "" {
		t.Errorf("silence heard as %q (%v)", got, err)
	}
}

// The recorder's path: Opus packets as a browser sends them, decoded and
// cut at the pauses, each utterance transcribed on its own.
func TestOpusRoundTripIsTranscribedPerUtterance(t *testing.T) {
	r := recognizer(t)
	var pcm []int16
	pcm = append(pcm, speechtest.Silence(500)...)
	pcm = append(pcm, speechtest.Speak(t, "The capstone proposal is due on March fourteenth.")...)
	pcm = append(pcm, speechtest.Silence(1500)...)
	pcm = append(pcm, speechtest.Speak(t, "The budget review happens next week.")...)
	pcm = append(pcm, speechtest.Silence(1000)...)

	enc, err := speech.NewOpusEncoder()
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	packets, err := enc.EncodeAll(pcm)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := speech.NewOpusDecoder()
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	seg := speech.NewSegmenter()
	var utts []speech.Utterance
	for _, p := range packets {
		out, err := dec.Decode(p)
		if err != nil {
			t.Fatal(err)
		}
		utts = append(utts, seg.Write(out)...)
	}
	if u, ok := seg.Flush(); ok {
		utts = append(utts, u)
	}
	if len(utts) != 2 {
		t.Fatalf("%d utterances, want 2", len(utts))
	}
	if utts[0].Start > utts[1].Start || utts[1].Start.Seconds() < 3 {
		t.Errorf("utterances start at %v and %v", utts[0].Start, utts[1].Start)
	}
	want := [][]string{{"capstone", "proposal", "march"}, {"budget", "review", "week"}}
	for i, u := range utts {
		got, err := r.Transcribe(u.PCM)
		if err != nil {
			t.Fatal(err)
		}
		if m := missing(got, want[i]...); len(m) > 0 {
			t.Errorf("%s heard as %q: missing %v", fmt.Sprintf("sentence %d", i+1), got, m)
		}
	}
}

func TestOpusDecoderConcealsALostPacket(t *testing.T) {
	dec, err := speech.NewOpusDecoder()
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	enc, _ := speech.NewOpusEncoder()
	defer enc.Close()
	p, _ := enc.Encode(make([]int16, speech.FrameSamples))
	if out, err := dec.Decode(p); err != nil || len(out) != speech.FrameSamples {
		t.Fatalf("decoded %d samples (%v)", len(out), err)
	}
	if out, err := dec.Decode(nil); err != nil || len(out) != speech.FrameSamples {
		t.Fatalf("lost packet: %d samples (%v)", len(out), err)
	}
}
