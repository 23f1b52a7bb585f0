// Package sfu is the one place that talks to LiveKit, the SFU of Meet Ups:
// it signs the access tokens browsers (and server-side participants) join
// rooms with, manages rooms through LiveKit's room service, and verifies the
// webhooks LiveKit posts about them. Everything above it speaks in this
// package's types, so that the LiveKit SDK and its protocol types stay here.
package sfu

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/livekit/protocol/auth"
	"github.com/livekit/protocol/livekit"
	"github.com/livekit/protocol/webhook"
	lksdk "github.com/livekit/server-sdk-go/v2"
	"github.com/twitchtv/twirp"
)

// MinSecretLength is the shortest API secret LiveKit accepts: the server
// refuses to start with a shorter one, so a shorter one here is a
// configuration mistake caught before the first call fails.
const MinSecretLength = 32

// DefaultTokenTTL is how long a token lasts when Grant.TTL is zero. A token
// is checked when a participant connects (and when it reconnects, with the
// fresh token the server hands out), not for the whole session.
const DefaultTokenTTL = 6 * time.Hour

// Webhook event kinds, as LiveKit names them (Event.Kind).
const (
	EventRoomStarted       = "room_started"
	EventRoomFinished      = "room_finished"
	EventParticipantJoined = "participant_joined"
	EventParticipantLeft   = "participant_left"
	EventTrackPublished    = "track_published"
	EventTrackUnpublished  = "track_unpublished"
	EventEgressStarted     = "egress_started"
	EventEgressUpdated     = "egress_updated"
	EventEgressEnded       = "egress_ended"
	EventIngressStarted    = "ingress_started"
	EventIngressEnded      = "ingress_ended"
)

// WebhookPath is where the API receives LiveKit's webhooks; the local
// server of agora dev and the tests is configured to post there.
const WebhookPath = "/api/livekit/webhook"

// ErrInvalidWebhook is what ReceiveWebhook returns (wrapped) for a body
// that is not signed with this client's key and secret, whose signature
// does not cover the body as received, or that is not a webhook event: the
// handler answers 401 and changes nothing.
var ErrInvalidWebhook = errors.New("sfu: invalid webhook")

// Config places a LiveKit server and holds the key pair that signs tokens
// and room service calls.
type Config struct {
	// URL is where the server reaches LiveKit (LIVEKIT_URL): ws(s):// or
	// http(s)://, its signalling and room service port.
	URL string
	// PublicURL is what browsers connect to (LIVEKIT_PUBLIC_URL); empty
	// means URL.
	PublicURL string
	// APIKey and APISecret are one of the server's key pairs.
	APIKey    string
	APISecret string
}

// Client signs tokens for one LiveKit server and calls its room service.
// It is safe for concurrent use.
type Client struct {
	cfg   Config
	rooms *lksdk.RoomServiceClient
}

// New checks c and returns a client for it. It does not contact the server.
func New(c Config) (*Client, error) {
	var errs []error
	if err := checkURL(c.URL); err != nil {
		errs = append(errs, fmt.Errorf("sfu: URL: %w", err))
	}
	if c.PublicURL == "" {
		c.PublicURL = c.URL
	} else if err := checkURL(c.PublicURL); err != nil {
		errs = append(errs, fmt.Errorf("sfu: PublicURL: %w", err))
	}
	if strings.TrimSpace(c.APIKey) == "" {
		errs = append(errs, errors.New("sfu: APIKey is empty"))
	}
	if len(c.APISecret) < MinSecretLength {
		errs = append(errs, fmt.Errorf("sfu: APISecret must have at least %d characters", MinSecretLength))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	// Browsers' livekit-client and the SDK both speak WebSocket on the
	// signalling URL; an http(s) one is the same address.
	c.URL = strings.TrimRight(c.URL, "/")
	c.PublicURL = wsURL(strings.TrimRight(c.PublicURL, "/"))
	return &Client{cfg: c, rooms: lksdk.NewRoomServiceClient(c.URL, c.APIKey, c.APISecret)}, nil
}

// checkURL accepts a ws, wss, http or https URL with a host.
func checkURL(raw string) error {
	if raw == "" {
		return errors.New("is empty")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%q is not a URL", raw)
	}
	switch u.Scheme {
	case "ws", "wss", "http", "https":
		return nil
	}
	return fmt.Errorf("%q is not a ws(s):// or http(s):// URL", raw)
}

func wsURL(u string) string {
	switch {
	case strings.HasPrefix(u, "https://"):
		return "wss://" + strings.TrimPrefix(u, "https://")
	case strings.HasPrefix(u, "http://"):
		return "ws://" + strings.TrimPrefix(u, "http://")
	}
	return u
}

// URL is where the server itself connects (LIVEKIT_URL): the address a
// server-side participant, such as the Meet Up recorder, joins rooms at.
func (c *Client) URL() string { return wsURL(c.cfg.URL) }

// PublicURL is the signalling URL browsers connect to, ws(s)://.
func (c *Client) PublicURL() string { return c.cfg.PublicURL }

// Grant is what a token lets its holder do in one room.
type Grant struct {
	// Room is the LiveKit room name; Identity is unique in the room (a
	// second connection with the same identity replaces the first).
	Room, Identity string
	// Name is shown to the other participants; Metadata is free text they
	// can read (JSON by convention).
	Name, Metadata string
	// CanPublish lets the participant send audio, video and screen
	// shares. Members need it even when they join muted, to unmute.
	CanPublish bool
	// CanSubscribe lets the participant receive the others' tracks.
	CanSubscribe bool
	// CanPublishData lets the participant send data messages.
	CanPublishData bool
	// Hidden keeps the participant out of the others' participant lists.
	Hidden bool
	// RoomAdmin lets the participant manage the room (mute, remove).
	RoomAdmin bool
	// Recorder marks the participant as recording the room, which
	// clients show.
	Recorder bool
	// TTL is how long the token may be used to connect; zero means
	// DefaultTokenTTL.
	TTL time.Duration
}

// Token signs a JWT that lets its holder join g.Room as g.Identity with
// g's permissions, and nothing else.
func (c *Client) Token(g Grant) (string, error) {
	if g.Room == "" {
		return "", errors.New("sfu: a token needs a room")
	}
	if g.Identity == "" {
		return "", errors.New("sfu: a token needs an identity")
	}
	if g.TTL < 0 {
		return "", errors.New("sfu: negative token TTL")
	}
	ttl := g.TTL
	if ttl == 0 {
		ttl = DefaultTokenTTL
	}
	grant := &auth.VideoGrant{
		RoomJoin:  true,
		Room:      g.Room,
		RoomAdmin: g.RoomAdmin,
		Hidden:    g.Hidden,
		Recorder:  g.Recorder,
	}
	// Each permission is set explicitly: LiveKit grants all of them when
	// none is.
	grant.SetCanPublish(g.CanPublish)
	grant.SetCanSubscribe(g.CanSubscribe)
	grant.SetCanPublishData(g.CanPublishData)
	t := auth.NewAccessToken(c.cfg.APIKey, c.cfg.APISecret).
		SetVideoGrant(grant).
		SetIdentity(g.Identity).
		SetName(g.Name).
		SetMetadata(g.Metadata).
		SetValidFor(ttl)
	return t.ToJWT()
}

// CreateRoom creates room name, or leaves it as it is when it exists. The
// room closes emptyTimeout after it was created if nobody joined (and as
// soon as the last participant leaves); maxParticipants 0 means no limit.
func (c *Client) CreateRoom(ctx context.Context, name string, emptyTimeout time.Duration, maxParticipants int) error {
	if name == "" {
		return errors.New("sfu: a room needs a name")
	}
	if emptyTimeout < 0 || maxParticipants < 0 {
		return errors.New("sfu: negative room limit")
	}
	_, err := c.rooms.CreateRoom(ctx, &livekit.CreateRoomRequest{
		Name:            name,
		EmptyTimeout:    uint32(emptyTimeout.Round(time.Second) / time.Second),
		MaxParticipants: uint32(maxParticipants),
	})
	return wrap("create room", err)
}

// DeleteRoom ends room for everyone in it: each participant is
// disconnected. A room that does not exist (never created, or closed
// already) is not an error.
func (c *Client) DeleteRoom(ctx context.Context, name string) error {
	_, err := c.rooms.DeleteRoom(ctx, &livekit.DeleteRoomRequest{Room: name})
	if notFound(err) {
		return nil
	}
	return wrap("delete room", err)
}

// Participant is someone connected to a room.
type Participant struct {
	Identity, Name string
	JoinedAt       time.Time
	// Tracks is how many tracks the participant publishes.
	Tracks int
}

// Participants lists who is connected to room now; a room that does not
// exist has nobody.
func (c *Client) Participants(ctx context.Context, room string) ([]Participant, error) {
	res, err := c.rooms.ListParticipants(ctx, &livekit.ListParticipantsRequest{Room: room})
	if notFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, wrap("list participants", err)
	}
	out := make([]Participant, 0, len(res.Participants))
	for _, p := range res.Participants {
		joined := time.Unix(p.JoinedAt, 0)
		if p.JoinedAtMs > 0 {
			joined = time.UnixMilli(p.JoinedAtMs)
		}
		out = append(out, Participant{Identity: p.Identity, Name: p.Name, JoinedAt: joined.UTC(), Tracks: len(p.Tracks)})
	}
	return out, nil
}

// RemoveParticipant disconnects identity from room. Someone who is not
// there (or a room that does not exist) is not an error: they are gone.
func (c *Client) RemoveParticipant(ctx context.Context, room, identity string) error {
	_, err := c.rooms.RemoveParticipant(ctx, &livekit.RoomParticipantIdentity{Room: room, Identity: identity})
	if notFound(err) {
		return nil
	}
	return wrap("remove participant", err)
}

// SendData sends payload reliably to everyone in room, on topic (clients
// tell messages apart by it). A room that does not exist has nobody to
// send to, which is not an error.
func (c *Client) SendData(ctx context.Context, room string, payload []byte, topic string) error {
	req := &livekit.SendDataRequest{Room: room, Data: payload, Kind: livekit.DataPacket_RELIABLE}
	if topic != "" {
		req.Topic = &topic
	}
	_, err := c.rooms.SendData(ctx, req)
	if notFound(err) {
		return nil
	}
	return wrap("send data", err)
}

// Event is a verified LiveKit webhook.
type Event struct {
	// Kind is LiveKit's event name: EventRoomStarted, EventRoomFinished,
	// EventParticipantJoined, EventParticipantLeft, EventTrackPublished…
	Kind string
	// Room is the room's name; Identity and Name the participant's, for
	// participant and track events.
	Room, Identity, Name string
	// ParticipantSID is the participant's session id, for participant
	// and track events: one identity joining from two devices is two
	// sessions.
	ParticipantSID string
	// At is when LiveKit made the event.
	At time.Time
	// ID is the event's unique id: LiveKit retries a delivery that failed,
	// so a handler may see an event twice.
	ID string
}

// ReceiveWebhook verifies a webhook's body against its Authorization
// header (a JWT signed with this client's key and secret that carries the
// body's SHA-256) and decodes it. Any failure wraps ErrInvalidWebhook.
func (c *Client) ReceiveWebhook(body []byte, authHeader string) (Event, error) {
	// The SDK's verifier reads a request; this one carries exactly what
	// the handler received.
	r, err := http.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	if err != nil {
		return Event{}, fmt.Errorf("%w: %v", ErrInvalidWebhook, err)
	}
	r.Header.Set("Authorization", authHeader)
	ev, err := webhook.ReceiveWebhookEvent(r, auth.NewSimpleKeyProvider(c.cfg.APIKey, c.cfg.APISecret))
	if err != nil {
		return Event{}, fmt.Errorf("%w: %v", ErrInvalidWebhook, err)
	}
	if ev.Event == "" {
		return Event{}, fmt.Errorf("%w: no event", ErrInvalidWebhook)
	}
	return Event{
		Kind:     ev.Event,
		Room:     ev.GetRoom().GetName(),
		Identity: ev.GetParticipant().GetIdentity(),
		Name:     ev.GetParticipant().GetName(),
		At:       time.Unix(ev.CreatedAt, 0).UTC(),
		ID:       ev.Id,

		ParticipantSID: ev.GetParticipant().GetSid(),
	}, nil
}

func notFound(err error) bool {
	var te twirp.Error
	return errors.As(err, &te) && te.Code() == twirp.NotFound
}

func wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("sfu: %s: %w", what, err)
}
