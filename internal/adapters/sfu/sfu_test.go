package sfu_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/livekit/protocol/auth"
	lksdk "github.com/livekit/server-sdk-go/v2"
	"github.com/pion/webrtc/v4"

	"agora/internal/adapters/sfu"
	"agora/internal/adapters/sfu/sfutest"
	"agora/internal/standins/sfuserver"
)

// One livekit-server for the package, whose webhooks land in hooks.
var (
	server *sfuserver.Server
	hooks  = &hookSink{}
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	listener := httptest.NewServer(hooks)
	defer listener.Close()
	dir, err := os.MkdirTemp("", "agora-sfu-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	server, err = sfuserver.Start(ctx, dir, listener.URL+"/api/livekit/webhook", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer server.Close() //nolint:errcheck
	return m.Run()
}

// hookSink keeps every webhook the server posts, as received.
type hookSink struct {
	mu    sync.Mutex
	posts []hookPost
	more  chan struct{}
}

type hookPost struct {
	path, auth string
	body       []byte
}

func (h *hookSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	h.mu.Lock()
	h.posts = append(h.posts, hookPost{path: r.URL.Path, auth: r.Header.Get("Authorization"), body: body})
	if h.more != nil {
		close(h.more)
		h.more = nil
	}
	h.mu.Unlock()
}

// wait returns the first post that match accepts, waiting for the server
// to send it.
func (h *hookSink) wait(t *testing.T, match func(hookPost) bool) hookPost {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		h.mu.Lock()
		for _, p := range h.posts {
			if match(p) {
				h.mu.Unlock()
				return p
			}
		}
		if h.more == nil {
			h.more = make(chan struct{})
		}
		more := h.more
		h.mu.Unlock()
		select {
		case <-more:
		case <-deadline:
			t.Fatal("the webhook did not come")
		}
	}
}

func newClient(t *testing.T) *sfu.Client {
	t.Helper()
	c, err := sfu.New(sfu.Config{URL: server.URL(), APIKey: server.APIKey(), APISecret: server.APISecret()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func roomName(t *testing.T) string {
	return strings.NewReplacer("/", "-", " ", "-").Replace(t.Name()) + "-" + fmt.Sprint(time.Now().UnixNano())
}

func TestNewRefusesBadConfig(t *testing.T) {
	good := sfu.Config{URL: "ws://127.0.0.1:7880", APIKey: "key", APISecret: strings.Repeat("s", 32)}
	for name, change := range map[string]func(*sfu.Config){
		"no URL":          func(c *sfu.Config) { c.URL = "" },
		"not a URL":       func(c *sfu.Config) { c.URL = "127.0.0.1:7880" },
		"ftp URL":         func(c *sfu.Config) { c.URL = "ftp://host" },
		"bad public URL":  func(c *sfu.Config) { c.PublicURL = "livekit" },
		"no key":          func(c *sfu.Config) { c.APIKey = " " },
		"short secret":    func(c *sfu.Config) { c.APISecret = "secret" },
		"secret of 31 ch": func(c *sfu.Config) { c.APISecret = strings.Repeat("s", 31) },
	} {
		c := good
		change(&c)
		if _, err := sfu.New(c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	c, err := sfu.New(good)
	if err != nil {
		t.Fatal(err)
	}
	if c.PublicURL() != "ws://127.0.0.1:7880" {
		t.Errorf("PublicURL defaults to %q", c.PublicURL())
	}
	good.URL, good.PublicURL = "http://livekit:7880", "https://agora.example.org/livekit/"
	c, err = sfu.New(good)
	if err != nil {
		t.Fatal(err)
	}
	if c.PublicURL() != "wss://agora.example.org/livekit" || c.URL() != "ws://livekit:7880" {
		t.Errorf("PublicURL %q, URL %q", c.PublicURL(), c.URL())
	}
}

// TestTokenGrants decodes a token with the server's secret and finds the
// grants as given, and nothing more.
func TestTokenGrants(t *testing.T) {
	c := newClient(t)
	before := time.Now()
	tok, err := c.Token(sfu.Grant{
		Room: "room-1", Identity: "user-1", Name: "Ada Lovelace", Metadata: `{"role":"member"}`,
		CanPublish: true, CanSubscribe: true, CanPublishData: false, TTL: 10 * time.Minute,
	})
	if err != nil {
		t.Fatal(err)
	}
	v, err := auth.ParseAPIToken(tok)
	if err != nil {
		t.Fatal(err)
	}
	claims, grants, err := v.Verify(server.APISecret())
	if err != nil {
		t.Fatal(err)
	}
	if v.APIKey() != server.APIKey() || grants.Identity != "user-1" || grants.Name != "Ada Lovelace" || grants.Metadata != `{"role":"member"}` {
		t.Errorf("key %q, identity %q, name %q, metadata %q", v.APIKey(), grants.Identity, grants.Name, grants.Metadata)
	}
	g := grants.Video
	if g == nil || !g.RoomJoin || g.Room != "room-1" || !g.GetCanPublish() || !g.GetCanSubscribe() || g.GetCanPublishData() ||
		g.Hidden || g.Recorder || g.RoomAdmin || g.RoomCreate || g.RoomList || g.RoomRecord {
		t.Errorf("video grant %+v", g)
	}
	if exp := claims.ExpiresAt.Time; exp.Before(before.Add(10*time.Minute-time.Second)) || exp.After(time.Now().Add(10*time.Minute+time.Second)) {
		t.Errorf("expires at %v, want 10 minutes from %v", exp, before)
	}

	tok, err = c.Token(sfu.Grant{Room: "room-1", Identity: "recorder", Hidden: true, Recorder: true, CanSubscribe: true, RoomAdmin: true})
	if err != nil {
		t.Fatal(err)
	}
	v, _ = auth.ParseAPIToken(tok)
	claims, grants, err = v.Verify(server.APISecret())
	if err != nil {
		t.Fatal(err)
	}
	g = grants.Video
	if !g.Hidden || !g.Recorder || !g.RoomAdmin || g.GetCanPublish() || g.GetCanPublishData() || !g.GetCanSubscribe() {
		t.Errorf("recorder's grant %+v", g)
	}
	if d := time.Until(claims.ExpiresAt.Time); d < sfu.DefaultTokenTTL-time.Minute || d > sfu.DefaultTokenTTL {
		t.Errorf("a token without TTL lasts %v", d)
	}
	for _, bad := range []sfu.Grant{{Identity: "x"}, {Room: "r"}, {Room: "r", Identity: "x", TTL: -time.Second}} {
		if _, err := c.Token(bad); err == nil {
			t.Errorf("token for %+v", bad)
		}
	}
}

// TestWrongSecretRefused: the server refuses a token, and room service
// calls, signed with another secret.
func TestWrongSecretRefused(t *testing.T) {
	forger, err := sfu.New(sfu.Config{URL: server.URL(), APIKey: server.APIKey(), APISecret: strings.Repeat("x", 40)})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := forger.Token(sfu.Grant{Room: roomName(t), Identity: "mallory", CanPublish: true, CanSubscribe: true})
	if err != nil {
		t.Fatal(err)
	}
	room, err := lksdk.ConnectToRoomWithToken(server.URL(), tok, lksdk.NewRoomCallback(), lksdk.WithAutoSubscribe(false))
	if err == nil {
		room.Disconnect()
		t.Fatal("connected with a token signed by another secret")
	}
	if err := forger.CreateRoom(context.Background(), roomName(t), time.Minute, 0); err == nil {
		t.Error("created a room with another secret")
	}
	// The real secret works, so the refusals above are the secret's.
	c := newClient(t)
	tok, _ = c.Token(sfu.Grant{Room: roomName(t), Identity: "alice", CanSubscribe: true})
	room, err = lksdk.ConnectToRoomWithToken(server.URL(), tok, lksdk.NewRoomCallback(), lksdk.WithAutoSubscribe(false))
	if err != nil {
		t.Fatal(err)
	}
	room.Disconnect()
}

// participant is a server-side SDK participant that notes what it gets.
type participant struct {
	room         *lksdk.Room
	subscribed   chan *webrtc.TrackRemote
	data         chan lksdk.DataPacket
	disconnected chan struct{}
}

func join(t *testing.T, c *sfu.Client, room, identity string, publish bool) *participant {
	t.Helper()
	p := &participant{subscribed: make(chan *webrtc.TrackRemote, 8), data: make(chan lksdk.DataPacket, 8), disconnected: make(chan struct{})}
	var once sync.Once
	cb := lksdk.NewRoomCallback()
	cb.OnTrackSubscribed = func(track *webrtc.TrackRemote, _ *lksdk.RemoteTrackPublication, _ *lksdk.RemoteParticipant) {
		p.subscribed <- track
	}
	cb.OnDataPacket = func(d lksdk.DataPacket, _ lksdk.DataReceiveParams) { p.data <- d }
	cb.OnDisconnected = func() { once.Do(func() { close(p.disconnected) }) }
	tok, err := c.Token(sfu.Grant{Room: room, Identity: identity, Name: identity, CanPublish: publish, CanSubscribe: true, CanPublishData: true})
	if err != nil {
		t.Fatal(err)
	}
	p.room, err = lksdk.ConnectToRoomWithToken(server.URL(), tok, cb)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.room.Disconnect)
	return p
}

func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not happen", what)
		panic("unreachable")
	}
}

// TestAudioReachesSubscriber: one participant publishes Opus silence, the
// other receives it, sees the room's data message, and both are listed;
// DeleteRoom then disconnects both.
func TestAudioReachesSubscriber(t *testing.T) {
	c := newClient(t)
	ctx := context.Background()
	room := roomName(t)
	if err := c.CreateRoom(ctx, room, time.Minute, 10); err != nil {
		t.Fatal(err)
	}
	alice := join(t, c, room, "alice", true)
	bob := join(t, c, room, "bob", false)

	track, err := sfutest.AudioTrack()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := alice.room.LocalParticipant.PublishTrack(track, &lksdk.TrackPublicationOptions{Name: "mic", Source: 2 /* microphone */}); err != nil {
		t.Fatal(err)
	}
	remote := within(t, bob.subscribed, "bob's subscription to alice's track")
	if remote.Kind() != webrtc.RTPCodecTypeAudio || !strings.EqualFold(remote.Codec().MimeType, webrtc.MimeTypeOpus) {
		t.Errorf("bob got a %s track of %s", remote.Kind(), remote.Codec().MimeType)
	}
	got := make(chan []byte, 1)
	go func() {
		for {
			pkt, _, err := remote.ReadRTP()
			if err != nil {
				return
			}
			if len(pkt.Payload) > 0 {
				select {
				case got <- pkt.Payload:
				default:
				}
			}
		}
	}()
	if payload := within(t, got, "an audio packet at bob"); !bytes.Equal(payload, []byte{0xf8, 0xff, 0xfe}) {
		t.Errorf("bob received %x, alice sent Opus silence f8fffe", payload)
	}

	people, err := c.Participants(ctx, room)
	if err != nil {
		t.Fatal(err)
	}
	tracks := map[string]int{}
	for _, p := range people {
		tracks[p.Identity] = p.Tracks
		if p.Name != p.Identity || p.JoinedAt.IsZero() || time.Since(p.JoinedAt) > time.Minute {
			t.Errorf("participant %+v", p)
		}
	}
	if len(people) != 2 || tracks["alice"] != 1 || tracks["bob"] != 0 {
		t.Errorf("participants %+v", people)
	}

	if err := c.SendData(ctx, room, []byte(`{"breakouts":"open"}`), "agora.meeting"); err != nil {
		t.Fatal(err)
	}
	if pkt := within(t, bob.data, "the room's data message at bob"); pkt == nil {
		t.Error("no data")
	} else if u, ok := pkt.(*lksdk.UserDataPacket); !ok || string(u.Payload) != `{"breakouts":"open"}` || u.Topic != "agora.meeting" {
		t.Errorf("bob got %#v", pkt)
	}

	if err := c.DeleteRoom(ctx, room); err != nil {
		t.Fatal(err)
	}
	within(t, alice.disconnected, "alice's disconnection")
	within(t, bob.disconnected, "bob's disconnection")
	if people, err := c.Participants(ctx, room); err != nil || len(people) != 0 {
		t.Errorf("after DeleteRoom: %v, %v", people, err)
	}
	// Ending a room that has ended is no error.
	if err := c.DeleteRoom(ctx, room); err != nil {
		t.Errorf("second DeleteRoom: %v", err)
	}
	if err := c.RemoveParticipant(ctx, room, "alice"); err != nil {
		t.Errorf("RemoveParticipant in a room that ended: %v", err)
	}
}

// TestRemoveParticipant disconnects one participant and leaves the other.
func TestRemoveParticipant(t *testing.T) {
	c := newClient(t)
	ctx := context.Background()
	room := roomName(t)
	alice := join(t, c, room, "alice", true)
	bob := join(t, c, room, "bob", true)
	if err := c.RemoveParticipant(ctx, room, "alice"); err != nil {
		t.Fatal(err)
	}
	within(t, alice.disconnected, "alice's disconnection")
	people, err := c.Participants(ctx, room)
	if err != nil || len(people) != 1 || people[0].Identity != "bob" {
		t.Errorf("after removing alice: %+v, %v", people, err)
	}
	select {
	case <-bob.disconnected:
		t.Error("bob was disconnected too")
	default:
	}
	if err := c.RemoveParticipant(ctx, room, "nobody"); err != nil {
		t.Errorf("removing someone who is not there: %v", err)
	}
}

// TestWebhook: the server's own participant_joined webhook verifies and
// decodes, with the participant's session id; the same post with its body
// changed, or checked with another secret, is refused.
func TestWebhook(t *testing.T) {
	c := newClient(t)
	room := roomName(t)
	join(t, c, room, "carol", false)
	post := hooks.wait(t, func(p hookPost) bool {
		return bytes.Contains(p.body, []byte(room)) && bytes.Contains(p.body, []byte(`"participant_joined"`))
	})
	if post.path != "/api/livekit/webhook" {
		t.Errorf("posted to %s", post.path)
	}
	ev, err := c.ReceiveWebhook(post.body, post.auth)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Kind != sfu.EventParticipantJoined || ev.Room != room || ev.Identity != "carol" || ev.Name != "carol" || ev.ID == "" ||
		!strings.HasPrefix(ev.ParticipantSID, "PA_") || ev.At.IsZero() || time.Since(ev.At) > time.Minute {
		t.Errorf("event %+v", ev)
	}
	started := hooks.wait(t, func(p hookPost) bool {
		return bytes.Contains(p.body, []byte(room)) && bytes.Contains(p.body, []byte(`"room_started"`))
	})
	if ev, err := c.ReceiveWebhook(started.body, started.auth); err != nil || ev.Kind != sfu.EventRoomStarted || ev.Room != room || ev.Identity != "" {
		t.Errorf("room_started: %+v, %v", ev, err)
	}

	tampered := bytes.Replace(post.body, []byte("carol"), []byte("carl_"), 1)
	if _, err := c.ReceiveWebhook(tampered, post.auth); !errors.Is(err, sfu.ErrInvalidWebhook) {
		t.Errorf("tampered body: %v", err)
	}
	for name, header := range map[string]string{"none": "", "garbage": "Bearer x.y.z", "cut": post.auth[:len(post.auth)-4]} {
		if _, err := c.ReceiveWebhook(post.body, header); !errors.Is(err, sfu.ErrInvalidWebhook) {
			t.Errorf("%s authorization: %v", name, err)
		}
	}
	other, _ := sfu.New(sfu.Config{URL: server.URL(), APIKey: server.APIKey(), APISecret: strings.Repeat("y", 32)})
	if _, err := other.ReceiveWebhook(post.body, post.auth); !errors.Is(err, sfu.ErrInvalidWebhook) {
		t.Errorf("another secret: %v", err)
	}
}

// TestCreateRoomLimits: the room's participant limit is LiveKit's: a
// third participant of a room of two is refused.
func TestCreateRoomLimits(t *testing.T) {
	c := newClient(t)
	room := roomName(t)
	if err := c.CreateRoom(context.Background(), room, time.Minute, 2); err != nil {
		t.Fatal(err)
	}
	// Creating it again leaves it as it is.
	if err := c.CreateRoom(context.Background(), room, time.Minute, 2); err != nil {
		t.Fatal(err)
	}
	join(t, c, room, "one", false)
	join(t, c, room, "two", false)
	tok, _ := c.Token(sfu.Grant{Room: room, Identity: "three", CanSubscribe: true})
	var joined atomic.Bool
	if r, err := lksdk.ConnectToRoomWithToken(server.URL(), tok, lksdk.NewRoomCallback()); err == nil {
		joined.Store(true)
		r.Disconnect()
	}
	if joined.Load() {
		t.Error("a third participant joined a room of two")
	}
	if err := c.CreateRoom(context.Background(), "", time.Minute, 0); err == nil {
		t.Error("created a room without a name")
	}
}

// TestSyntheticTracks: sfutest's participants publish Opus and VP8 that a
// subscriber receives, as the benchmark's do.
func TestSyntheticTracks(t *testing.T) {
	frames, err := sfutest.Frames()
	if err != nil {
		t.Fatal(err)
	}
	// A VP8 key frame: the inverted key frame bit, then the start code.
	if len(frames) != 30 || frames[0][0]&1 != 0 || !bytes.Equal(frames[0][3:6], []byte{0x9d, 0x01, 0x2a}) {
		t.Fatalf("%d frames, the first starting %x", len(frames), frames[0][:6])
	}
	c := newClient(t)
	room := roomName(t)
	token := func(identity string) string {
		tok, err := c.Token(sfu.Grant{Room: room, Identity: identity, CanPublish: true, CanSubscribe: true})
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	alice, err := sfutest.Join(c.URL(), token("alice"), sfutest.JoinOptions{Audio: true, VideoFPS: 15})
	if err != nil {
		t.Fatal(err)
	}
	defer alice.Close()
	bob, err := sfutest.Join(c.URL(), token("bob"), sfutest.JoinOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer bob.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := bob.WaitSubscribed(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if d, ok := bob.FirstTrack(); !ok || d <= 0 {
		t.Errorf("first track after %v, %v", d, ok)
	}
	// Packets keep coming on both tracks: more than the two that made
	// the subscriptions.
	for {
		if packets, _, audio := bob.Received(); packets > 40 && audio > 0 && audio < packets {
			break
		}
		select {
		case <-ctx.Done():
			packets, _, audio := bob.Received()
			t.Fatalf("bob received %d packets, %d of audio", packets, audio)
		case <-time.After(50 * time.Millisecond):
		}
	}
	if alice.Subscribed() != 0 {
		t.Errorf("alice subscribed to %d tracks; bob publishes none", alice.Subscribed())
	}
}
