package sfutest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	lksdk "github.com/livekit/server-sdk-go/v2"
	"github.com/pion/webrtc/v4"
)

// JoinOptions says what a Participant publishes.
type JoinOptions struct {
	// Audio publishes AudioTrack (Opus silence).
	Audio bool
	// VideoFPS, when above 0, publishes VideoTrack at that frame rate.
	VideoFPS int
}

// Participant is a server-side LiveKit participant, standing in for a
// browser: it subscribes to every track in the room (as livekit-client
// does by default), reads their packets, and notes when its first remote
// track arrived.
type Participant struct {
	Room *lksdk.Room

	started      time.Time
	mu           sync.Mutex
	firstTrack   time.Time
	subscribed   int
	changed      chan struct{} // closed and replaced at each subscription
	packets      atomic.Int64
	bytes        atomic.Int64
	audio        atomic.Int64 // packets of audio tracks
	disconnected chan struct{}
}

// Join connects to url with token, then publishes what opts says.
func Join(url, token string, opts JoinOptions) (*Participant, error) {
	p := &Participant{started: time.Now(), changed: make(chan struct{}), disconnected: make(chan struct{})}
	var once sync.Once
	cb := lksdk.NewRoomCallback()
	cb.OnTrackSubscribed = func(track *webrtc.TrackRemote, _ *lksdk.RemoteTrackPublication, _ *lksdk.RemoteParticipant) {
		p.mu.Lock()
		if p.firstTrack.IsZero() {
			p.firstTrack = time.Now()
		}
		p.subscribed++
		close(p.changed)
		p.changed = make(chan struct{})
		p.mu.Unlock()
		go p.read(track)
	}
	cb.OnDisconnected = func() { once.Do(func() { close(p.disconnected) }) }
	// The SDK gives up after 5 s; on a machine shared with a whole test
	// run (or a benchmark's 25 participants) joining can take longer.
	room, err := lksdk.ConnectToRoomWithToken(url, token, cb, lksdk.WithConnectTimeout(30*time.Second))
	if err != nil {
		return nil, err
	}
	p.Room = room
	if opts.Audio {
		track, err := AudioTrack()
		if err == nil {
			_, err = room.LocalParticipant.PublishTrack(track, &lksdk.TrackPublicationOptions{Name: "microphone", Source: 2})
		}
		if err != nil {
			room.Disconnect()
			return nil, fmt.Errorf("sfutest: publish audio: %w", err)
		}
	}
	if opts.VideoFPS > 0 {
		track, err := VideoTrack(opts.VideoFPS)
		if err == nil {
			_, err = room.LocalParticipant.PublishTrack(track, &lksdk.TrackPublicationOptions{Name: "camera", Source: 1, VideoWidth: 160, VideoHeight: 120})
		}
		if err != nil {
			room.Disconnect()
			return nil, fmt.Errorf("sfutest: publish video: %w", err)
		}
	}
	return p, nil
}

// read drains a subscribed track, counting what arrives, until it ends.
func (p *Participant) read(track *webrtc.TrackRemote) {
	buf := make([]byte, 1500)
	audio := track.Kind() == webrtc.RTPCodecTypeAudio
	for {
		n, _, err := track.Read(buf)
		if err != nil {
			return
		}
		p.packets.Add(1)
		p.bytes.Add(int64(n))
		if audio {
			p.audio.Add(1)
		}
	}
}

// FirstTrack is how long after Join began the first remote track was
// subscribed; false when none has been.
func (p *Participant) FirstTrack() (time.Duration, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.firstTrack.IsZero() {
		return 0, false
	}
	return p.firstTrack.Sub(p.started), true
}

// Subscribed is how many remote tracks the participant has subscribed to.
func (p *Participant) Subscribed() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.subscribed
}

// WaitSubscribed waits until the participant has subscribed to n tracks.
func (p *Participant) WaitSubscribed(ctx context.Context, n int) error {
	for {
		p.mu.Lock()
		got, changed := p.subscribed, p.changed
		p.mu.Unlock()
		if got >= n {
			return nil
		}
		select {
		case <-changed:
		case <-p.disconnected:
			return fmt.Errorf("sfutest: disconnected with %d of %d tracks", got, n)
		case <-ctx.Done():
			return fmt.Errorf("sfutest: %d of %d tracks: %w", got, n, ctx.Err())
		}
	}
}

// Received is the RTP packets and bytes read from every subscribed track,
// and how many of the packets were audio.
func (p *Participant) Received() (packets, bytes, audio int64) {
	return p.packets.Load(), p.bytes.Load(), p.audio.Load()
}

// Disconnected is closed when the server has disconnected the participant
// (or Close was called).
func (p *Participant) Disconnected() <-chan struct{} { return p.disconnected }

// Close leaves the room.
func (p *Participant) Close() { p.Room.Disconnect() }
