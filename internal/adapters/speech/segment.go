package speech

import (
	"math"
	"time"
)

// Utterance is a stretch of speech between silences.
type Utterance struct {
	// Start is the offset of its first sample from the stream's start
	// (the stream's own clock: the samples fed so far).
	Start time.Duration
	PCM   []int16
}

// Segmenter cuts a stream of 16 kHz mono PCM into utterances: speech is
// 20 ms frames louder than a threshold; an utterance ends after Pause of
// frames below it, or at MaxLength. Short bursts (a cough, a click) below
// MinSpeech are dropped. It is not safe for concurrent use.
type Segmenter struct {
	// Threshold is the RMS level (of 32768) a frame of speech reaches.
	Threshold float64
	// Pause is the silence that ends an utterance.
	Pause time.Duration
	// MinSpeech is the least speech an utterance holds to be kept.
	MinSpeech time.Duration
	// MaxLength cuts an utterance that goes on without a pause.
	MaxLength time.Duration

	pending  []int16 // samples not yet a whole frame
	cur      []int16 // the utterance being gathered
	curStart int64   // its first sample's offset
	speech   int     // frames of speech in cur
	silent   int     // frames of silence at its end
	fed      int64   // samples seen, the stream's clock
}

// NewSegmenter returns a segmenter with settings that suit conversation:
// a 600 ms pause ends an utterance, 250 ms of speech make one, and none
// is longer than 20 s.
func NewSegmenter() *Segmenter {
	return &Segmenter{Threshold: 500, Pause: 600 * time.Millisecond, MinSpeech: 250 * time.Millisecond, MaxLength: 20 * time.Second}
}

func frames(d time.Duration) int { return int(d / (20 * time.Millisecond)) }

// Write feeds samples and returns the utterances they complete.
func (s *Segmenter) Write(pcm []int16) []Utterance {
	var out []Utterance
	s.pending = append(s.pending, pcm...)
	for len(s.pending) >= FrameSamples {
		frame := s.pending[:FrameSamples]
		if u, ok := s.frame(frame); ok {
			out = append(out, u)
		}
		s.pending = s.pending[FrameSamples:]
	}
	// Keep the remainder in its own small buffer rather than pinning the
	// caller's.
	s.pending = append([]int16(nil), s.pending...)
	return out
}

func (s *Segmenter) frame(frame []int16) (Utterance, bool) {
	start := s.fed
	s.fed += int64(len(frame))
	loud := rms(frame) >= s.Threshold
	if len(s.cur) == 0 {
		if !loud {
			return Utterance{}, false
		}
		s.curStart = start
	}
	s.cur = append(s.cur, frame...)
	if loud {
		s.speech++
		s.silent = 0
	} else {
		s.silent++
	}
	if s.silent >= max(frames(s.Pause), 1) || len(s.cur) >= int(s.MaxLength.Seconds()*SampleRate) {
		return s.Flush()
	}
	return Utterance{}, false
}

// Flush ends the utterance being gathered (the stream ended) and returns
// it when it holds enough speech.
func (s *Segmenter) Flush() (Utterance, bool) {
	u := Utterance{Start: time.Duration(s.curStart) * time.Second / SampleRate, PCM: s.cur}
	keep := s.speech >= max(frames(s.MinSpeech), 1)
	s.cur, s.speech, s.silent = nil, 0, 0
	return u, keep
}

func rms(frame []int16) float64 {
	var sum float64
	for _, v := range frame {
		f := float64(v)
		sum += f * f
	}
	return math.Sqrt(sum / float64(len(frame)))
}
