// Package sfutest gives tests and the benchmark synthetic media to publish
// from server-side LiveKit participants: an Opus audio track of silence and
// a VP8 video track of real, small frames (160×120, encoded once with
// libvpx's vpxenc and embedded: frames.ivf, 30 frames of a moving gradient,
// a key frame every 2 s at 15 fps, about 46 kbit/s).
package sfutest

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	lksdk "github.com/livekit/server-sdk-go/v2"
	"github.com/pion/rtcp"
	"github.com/pion/webrtc/v4"
	"github.com/pion/webrtc/v4/pkg/media"
	"github.com/pion/webrtc/v4/pkg/media/ivfreader"
)

//go:embed frames.ivf
var framesIVF []byte

// opusSilence is one 20 ms Opus frame of silence (a CELT-only, mono frame
// whose one byte of payload decodes to zeros), as browsers send while
// muted by software.
var opusSilence = []byte{0xf8, 0xff, 0xfe}

// AudioTrack is a local Opus track that sends a silence frame every 20 ms
// once published.
func AudioTrack() (*lksdk.LocalTrack, error) {
	track, err := lksdk.NewLocalTrack(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2})
	if err != nil {
		return nil, err
	}
	if err := track.StartWrite(&silence{}, nil); err != nil {
		return nil, err
	}
	return track, nil
}

// VideoTrack is a local VP8 track that sends the embedded frames, over and
// over, at fps frames a second (1 to 60) once published.
func VideoTrack(fps int) (*lksdk.LocalTrack, error) {
	if fps < 1 || fps > 60 {
		return nil, fmt.Errorf("sfutest: %d fps", fps)
	}
	frames, err := Frames()
	if err != nil {
		return nil, err
	}
	l := &loop{frames: frames, every: time.Second / time.Duration(fps)}
	// A new subscriber can show nothing until a key frame: the SFU asks
	// for one (a PLI, or a FIR), and the loop starts over at its key
	// frame, as a browser's encoder would send one.
	track, err := lksdk.NewLocalTrack(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeVP8, ClockRate: 90000},
		lksdk.WithRTCPHandler(func(p rtcp.Packet) {
			switch p.(type) {
			case *rtcp.PictureLossIndication, *rtcp.FullIntraRequest:
				l.keyFrame.Store(true)
			}
		}))
	if err != nil {
		return nil, err
	}
	if err := track.StartWrite(l, nil); err != nil {
		return nil, err
	}
	return track, nil
}

// Frames are the embedded VP8 frames, the first a key frame.
func Frames() ([][]byte, error) {
	r, _, err := ivfreader.NewWith(bytes.NewReader(framesIVF))
	if err != nil {
		return nil, fmt.Errorf("sfutest: frames.ivf: %w", err)
	}
	var frames [][]byte
	for {
		frame, _, err := r.ParseNextFrame()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("sfutest: frames.ivf: %w", err)
		}
		frames = append(frames, frame)
	}
	if len(frames) == 0 || frames[0][0]&1 != 0 {
		return nil, errors.New("sfutest: frames.ivf does not start with a key frame")
	}
	return frames, nil
}

type silence struct{ lksdk.BaseSampleProvider }

func (*silence) NextSample(context.Context) (media.Sample, error) {
	return media.Sample{Data: opusSilence, Duration: 20 * time.Millisecond}, nil
}

// CurrentAudioLevel is the level of silence (127 is the quietest), which
// the track sends with each packet as the audio level extension.
func (*silence) CurrentAudioLevel() uint8 { return 127 }

type loop struct {
	lksdk.BaseSampleProvider
	frames   [][]byte
	every    time.Duration
	next     int
	keyFrame atomic.Bool // asked for by the SFU
}

func (l *loop) NextSample(context.Context) (media.Sample, error) {
	if l.keyFrame.Swap(false) {
		l.next = 0
	}
	f := l.frames[l.next]
	l.next = (l.next + 1) % len(l.frames)
	return media.Sample{Data: f, Duration: l.every}, nil
}
