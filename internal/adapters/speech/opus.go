//go:build cgo

package speech

/*
#cgo pkg-config: opus
#include <opus.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// maxFrame is the most samples one Opus packet holds at SampleRate: 120 ms.
const maxFrame = SampleRate * 120 / 1000

// OpusDecoder decodes one Opus stream (one track: the decoder keeps state
// between packets) to 16 kHz mono PCM. Opus decodes to any of its rates
// directly, whatever the sender encoded at, so nothing is resampled. It is
// not safe for concurrent use.
type OpusDecoder struct {
	dec *C.OpusDecoder
	buf []int16
}

// NewOpusDecoder returns a decoder for one stream.
func NewOpusDecoder() (*OpusDecoder, error) {
	var e C.int
	dec := C.opus_decoder_create(SampleRate, 1, &e)
	if e != C.OPUS_OK || dec == nil {
		return nil, fmt.Errorf("speech: opus decoder: %s", C.GoString(C.opus_strerror(e)))
	}
	return &OpusDecoder{dec: dec, buf: make([]int16, maxFrame)}, nil
}

// Decode decodes one packet and returns its samples; the slice is reused
// by the next call. A nil packet stands for a lost one: libopus conceals
// it with 20 ms of sound made from what came before.
func (d *OpusDecoder) Decode(packet []byte) ([]int16, error) {
	if d.dec == nil {
		return nil, errors.New("speech: opus decoder closed")
	}
	var data *C.uchar
	frame := maxFrame
	if len(packet) > 0 {
		data = (*C.uchar)(unsafe.Pointer(&packet[0]))
	} else {
		frame = FrameSamples
	}
	n := C.opus_decode(d.dec, data, C.opus_int32(len(packet)), (*C.opus_int16)(unsafe.Pointer(&d.buf[0])), C.int(frame), 0)
	if n < 0 {
		return nil, fmt.Errorf("speech: opus decode: %s", C.GoString(C.opus_strerror(n)))
	}
	return d.buf[:n], nil
}

// Close frees the decoder.
func (d *OpusDecoder) Close() {
	if d.dec != nil {
		C.opus_decoder_destroy(d.dec)
		d.dec = nil
	}
}

// OpusEncoder encodes 16 kHz mono PCM into Opus packets of 20 ms, as a
// browser's microphone track carries them. The server publishes with it
// only in tests and benchmarks (a participant that speaks known words).
type OpusEncoder struct {
	enc *C.OpusEncoder
	out []byte
}

// FrameSamples is the samples of one 20 ms frame at SampleRate.
const FrameSamples = SampleRate / 50

// NewOpusEncoder returns an encoder tuned for speech.
func NewOpusEncoder() (*OpusEncoder, error) {
	var e C.int
	enc := C.opus_encoder_create(SampleRate, 1, C.OPUS_APPLICATION_VOIP, &e)
	if e != C.OPUS_OK || enc == nil {
		return nil, fmt.Errorf("speech: opus encoder: %s", C.GoString(C.opus_strerror(e)))
	}
	return &OpusEncoder{enc: enc, out: make([]byte, 4000)}, nil
}

// Encode encodes exactly FrameSamples samples into one packet (a copy).
func (e *OpusEncoder) Encode(frame []int16) ([]byte, error) {
	if e.enc == nil {
		return nil, errors.New("speech: opus encoder closed")
	}
	if len(frame) != FrameSamples {
		return nil, fmt.Errorf("speech: opus frame of %d samples, want %d", len(frame), FrameSamples)
	}
	n := C.opus_encode(e.enc, (*C.opus_int16)(unsafe.Pointer(&frame[0])), C.int(len(frame)), (*C.uchar)(unsafe.Pointer(&e.out[0])), C.opus_int32(len(e.out)))
	if n < 0 {
		return nil, fmt.Errorf("speech: opus encode: %s", C.GoString(C.opus_strerror(n)))
	}
	return append([]byte(nil), e.out[:n]...), nil
}

// EncodeAll cuts pcm into 20 ms frames (the last one padded with silence)
// and encodes each.
func (e *OpusEncoder) EncodeAll(pcm []int16) ([][]byte, error) {
	var packets [][]byte
	frame := make([]int16, FrameSamples)
	for i := 0; i < len(pcm); i += FrameSamples {
		clear(frame)
		copy(frame, pcm[i:min(i+FrameSamples, len(pcm))])
		p, err := e.Encode(frame)
		if err != nil {
			return nil, err
		}
		packets = append(packets, p)
	}
	return packets, nil
}

// Close frees the encoder.
func (e *OpusEncoder) Close() {
	if e.enc != nil {
		C.opus_encoder_destroy(e.enc)
		e.enc = nil
	}
}
