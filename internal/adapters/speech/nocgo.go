//go:build !cgo

package speech

import "errors"

// ErrNoCgo is what every constructor returns in a binary built without cgo
// (deploy/'s static image): libopus and pocketsphinx are C libraries, so
// such a binary cannot record AI notes, and says so when asked to.
var ErrNoCgo = errors.New("speech: this binary was built without cgo, so without libopus and pocketsphinx")

// ModelDir is where Debian's pocketsphinx-en-us puts the US English model.
const ModelDir = "/usr/share/pocketsphinx/model/en-us"

// FrameSamples is the samples of one 20 ms frame at SampleRate.
const FrameSamples = SampleRate / 50

// Recognizer is unavailable without cgo.
type Recognizer struct{}

// NewRecognizer returns ErrNoCgo.
func NewRecognizer(string) (*Recognizer, error) { return nil, ErrNoCgo }

// Transcribe returns ErrNoCgo.
func (*Recognizer) Transcribe([]int16) (string, error) { return "", ErrNoCgo }

// Close does nothing.
func (*Recognizer) Close() error { return nil }

// OpusDecoder is unavailable without cgo.
type OpusDecoder struct{}

// NewOpusDecoder returns ErrNoCgo.
func NewOpusDecoder() (*OpusDecoder, error) { return nil, ErrNoCgo }

// Decode returns ErrNoCgo.
func (*OpusDecoder) Decode([]byte) ([]int16, error) { return nil, ErrNoCgo }

// Close does nothing.
func (*OpusDecoder) Close() {}

// OpusEncoder is unavailable without cgo.
type OpusEncoder struct{}

// NewOpusEncoder returns ErrNoCgo.
func NewOpusEncoder() (*OpusEncoder, error) { return nil, ErrNoCgo }

// Encode returns ErrNoCgo.
func (*OpusEncoder) Encode([]int16) ([]byte, error) { return nil, ErrNoCgo }

// EncodeAll returns ErrNoCgo.
func (*OpusEncoder) EncodeAll([]int16) ([][]byte, error) { return nil, ErrNoCgo }

// Close does nothing.
func (*OpusEncoder) Close() {}
