package speechtest

import (
	"testing"
	"time"

	"github.com/livekit/protocol/livekit"
	lksdk "github.com/livekit/server-sdk-go/v2"
	"github.com/pion/webrtc/v4"
	"github.com/pion/webrtc/v4/pkg/media"

	"agora/internal/adapters/speech"
)

// Say joins a LiveKit room with token (one that may publish) and publishes
// a microphone track that says pcm, after 2 s of silence (while the
// others subscribe) and followed by 1.5 s of it, in 20 ms Opus packets
// paced as a browser sends them; it returns once all is sent and it has
// left the room.
func Say(tb testing.TB, url, token string, pcm []int16) {
	tb.Helper()
	r, err := lksdk.ConnectToRoomWithToken(url, token, lksdk.NewRoomCallback(), lksdk.WithAutoSubscribe(false))
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Disconnect()
	track, err := lksdk.NewLocalSampleTrack(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := r.LocalParticipant.PublishTrack(track, &lksdk.TrackPublicationOptions{Name: "microphone", Source: livekit.TrackSource_MICROPHONE}); err != nil {
		tb.Fatal(err)
	}
	enc, err := speech.NewOpusEncoder()
	if err != nil {
		tb.Fatal(err)
	}
	defer enc.Close()
	audio := append(Silence(2000), pcm...)
	audio = append(audio, Silence(1500)...)
	packets, err := enc.EncodeAll(audio)
	if err != nil {
		tb.Fatal(err)
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for _, p := range packets {
		<-tick.C
		if err := track.WriteSample(media.Sample{Data: p, Duration: 20 * time.Millisecond}, nil); err != nil {
			tb.Fatal(err)
		}
	}
}
