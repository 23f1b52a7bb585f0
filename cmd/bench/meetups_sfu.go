package main

// meetups-sfu: the SFU under a Meet Up of 25 participants. A private
// livekit-server (internal/standins/sfuserver, loopback only) and 25 server-side
// participants in this process (internal/adapters/sfu/sfutest), each publishing an
// Opus track of silence (50 packets/s) and a VP8 track of real 160×120
// frames at 15 fps, and each subscribed to every other participant's
// tracks, as a browser is: 50 tracks in, 1,200 subscriptions out.
//
// They arrive one after another, each starting to connect once the one
// before has joined, published, and been subscribed to by everyone, so the
// n-th finds a settled room of n−1 publishers.
// Join-to-first-track is, per participant after the first (who finds
// nobody), the time from starting to connect until its first remote track
// is subscribed. Once every subscription is made, the SFU's CPU is read
// from /proc/PID/stat over a steady window: percent of one core. This
// process's CPU (the 25 participants: packetizing, SRTP, reading every
// packet) is printed beside it; both share the machine.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/go-logr/logr"
	protoLogger "github.com/livekit/protocol/logger"
	lksdk "github.com/livekit/server-sdk-go/v2"

	"agora/internal/adapters/sfu"
	"agora/internal/adapters/sfu/sfutest"
	"agora/internal/standins/sfuserver"
)

// vp8PacketPayload is about what pion's VP8 payloader puts in a packet
// (its 1,200-byte MTU less the RTP header and extensions).
const vp8PacketPayload = 1150

var (
	meetupParticipantsN = flag.Int("meetup-participants", 25, "participants of the meetups-sfu benchmark")
	meetupFPS           = flag.Int("meetup-fps", 15, "video frames a second each meetups-sfu participant publishes")
	meetupSettle        = flag.Duration("meetup-settle", 3*time.Second, "wait after the last subscription before the meetups-sfu CPU window")
	meetupWindow        = flag.Duration("meetup-window", 15*time.Second, "the window the meetups-sfu CPU is measured over")
)

func meetupsSFUBench(ctx context.Context, selected map[string]bool, verbose bool) error {
	if !selected["meetups-sfu"] {
		return nil
	}
	n, fps := *meetupParticipantsN, *meetupFPS
	if n < 2 || fps < 1 || fps > 60 || *meetupWindow <= 0 || *meetupSettle < 0 {
		return fmt.Errorf("meetups-sfu: -meetup-participants must be at least 2, -meetup-fps 1 to 60, -meetup-window positive")
	}
	// The SDK (and pion under it) log every negotiation.
	lksdk.SetLogger(protoLogger.LogRLogger(logr.Discard()))
	dir, err := os.MkdirTemp("", "agora-bench-livekit-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	srv, err := sfuserver.Start(ctx, dir, "", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return err
	}
	defer srv.Close() //nolint:errcheck
	client, err := sfu.New(sfu.Config{URL: srv.URL(), APIKey: srv.APIKey(), APISecret: srv.APISecret()})
	if err != nil {
		return err
	}
	room := fmt.Sprintf("bench-meetup-%d", time.Now().UnixNano())
	if err := client.CreateRoom(ctx, room, 5*time.Minute, n); err != nil {
		return err
	}
	fmt.Printf("meetups-sfu: livekit-server %s (pid %d), %d participants each publishing Opus silence and VP8 160x120 at %d fps, each subscribed to all others\n",
		sfuserver.Version, srv.PID(), n, fps)

	people := make([]*sfutest.Participant, 0, n)
	defer func() {
		for _, p := range people {
			p.Close()
		}
	}()
	// settle waits until everyone in the room has subscribed to everyone
	// else's two tracks.
	settle := func() error {
		wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		for i, p := range people {
			if err := p.WaitSubscribed(wctx, 2*(len(people)-1)); err != nil {
				return fmt.Errorf("meetups-sfu: participant %d of %d: %w", i+1, len(people), err)
			}
		}
		return nil
	}
	joinStart := time.Now()
	for i := range n {
		tok, err := client.Token(sfu.Grant{Room: room, Identity: fmt.Sprintf("bench-%02d", i), Name: fmt.Sprintf("Participant %d", i+1),
			CanPublish: true, CanSubscribe: true, CanPublishData: true})
		if err != nil {
			return err
		}
		p, err := sfutest.Join(client.URL(), tok, sfutest.JoinOptions{Audio: true, VideoFPS: fps})
		if err != nil {
			return fmt.Errorf("meetups-sfu: participant %d: %w", i+1, err)
		}
		people = append(people, p)
		// The next one arrives in a settled room: the last arrival's
		// tracks reach everyone, as the next browser would find them.
		if err := settle(); err != nil {
			return err
		}
		if verbose {
			fmt.Fprintf(os.Stderr, "meetups-sfu: participant %d in at %.1f s (SFU CPU so far %.1f s, this process %.1f s)\n",
				i+1, time.Since(joinStart).Seconds(), procCPU(srv.PID()).Seconds(), selfCPU().Seconds())
		}
	}
	want := 2 * (n - 1)
	allIn := time.Since(joinStart)

	var lat []time.Duration
	for _, p := range people[1:] {
		if d, ok := p.FirstTrack(); ok {
			lat = append(lat, d)
		}
	}
	r := newResult(lat, 0)
	tracks, _ := client.Participants(ctx, room)
	published := 0
	for _, p := range tracks {
		published += p.Tracks
	}
	fmt.Printf("meetups-sfu: join-to-first-track p50 %.0f ms, p95 %.0f ms, max %.0f ms (%d participants after the first); all %d subscriptions made %.1f s after the first began to connect (one arrival at a time)\n",
		ms(r.p(50)), ms(r.p(95)), ms(r.p(100)), r.n(), n*want, allIn.Seconds())

	select {
	case <-time.After(*meetupSettle):
	case <-ctx.Done():
		return ctx.Err()
	}
	received := func() (packets, bytes, audio int64) {
		for _, p := range people {
			pk, b, a := p.Received()
			packets += pk
			bytes += b
			audio += a
		}
		return packets, bytes, audio
	}
	sfu0, self0, t0 := procCPU(srv.PID()), selfCPU(), time.Now()
	pk0, b0, a0 := received()
	select {
	case <-time.After(*meetupWindow):
	case <-ctx.Done():
		return ctx.Err()
	}
	sfu1, self1, wall := procCPU(srv.PID()), selfCPU(), time.Since(t0)
	pk1, b1, a1 := received()
	// What full delivery would be: every subscriber gets each other
	// participant's 50 audio packets and fps frames (of one or more
	// packets) a second. The video figure is an estimate from the frames'
	// sizes: key frames sent for the SFU's picture loss requests add
	// packets, so it can pass 100%.
	frames, err := sfutest.Frames()
	if err != nil {
		return err
	}
	perLoop := 0
	for _, f := range frames {
		perLoop += (len(f) + vp8PacketPayload - 1) / vp8PacketPayload
	}
	fullAudio := float64(n*(n-1)) * 50
	fullVideo := float64(n*(n-1)) * float64(fps*perLoop) / float64(len(frames))
	fmt.Printf("meetups-sfu: SFU CPU %.1f%% of one core over %.0f s (the %d participants in this process: %.1f%%); %d participants, %d tracks published, %d subscriptions; delivered %.0f packets/s (audio %.0f%%, video %.0f%% of full delivery), %.1f Mbit/s to the subscribers; load average %s\n",
		100*(sfu1-sfu0).Seconds()/wall.Seconds(), wall.Seconds(), n, 100*(self1-self0).Seconds()/wall.Seconds(),
		len(tracks), published, n*want, float64(pk1-pk0)/wall.Seconds(), 100*float64(a1-a0)/wall.Seconds()/fullAudio, 100*float64(pk1-pk0-(a1-a0))/wall.Seconds()/fullVideo, float64(b1-b0)*8/wall.Seconds()/1e6, loadAverage())
	return nil
}
