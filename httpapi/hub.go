package httpapi

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
	"github.com/valyala/fasthttp"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/jsontime"
	"agora/live"
	qaccount "agora/query/account"
)

// The WebSocket's timing: a ping every hubPing, and a connection that
// answers nothing (no pong, no message) for hubPongWait is dead.
const (
	hubPing      = 25 * time.Second
	hubPongWait  = 60 * time.Second
	hubWriteWait = 10 * time.Second
	// hubReadLimit bounds what a browser may send: pongs, close frames
	// and its presence reports.
	hubReadLimit = 4 << 10
	// hubFrameGap is the least time between two frames of one connection:
	// a message that finds the connection idle goes at once, and those
	// that come within hubFrameGap of a frame wait for the next one and
	// go in it together (live.AppendFrame). Each frame is a write to the
	// socket and a wake-up of its reader; under a crowd of 1,500 members,
	// each of whom hears every post, comment and reaction of their
	// forums, those writes were a quarter of the two cores. A message
	// waits at most this long for it, and none waits once half the
	// connection's queue is taken (live.Client.HalfFull): a burst, such
	// as a node's members all disconnecting, must not fill it.
	hubFrameGap = 100 * time.Millisecond
)

// HubPresenceSettings is the event of the first message on every
// connection: its payload's awayAfter (milliseconds) is how long the tab
// waits, hidden or without input, before it reports its member idle.
const HubPresenceSettings = "presence.settings"

// HubDeploymentCompleted is the event of every connection's second
// message: its payload's version is the build of the web app this node
// serves (web.BuildID, "" when it serves none). A tab of another build
// offers to reload, so a deployment reaches open tabs as they reconnect.
const HubDeploymentCompleted = "application.deployment.completed"

// hubReport is what a browser sends on the hub: {"type": "presence",
// "state": "idle" | "active"}. Anything else is ignored.
type hubReport struct {
	Type  string `json:"type"`
	State string `json:"state"`
}

// applyHubReport hands a tab's presence report to the hub.
func applyHubReport(hub *live.Hub, client *live.Client, b []byte) {
	var r hubReport
	if json.Unmarshal(b, &r) != nil || r.Type != "presence" {
		return
	}
	switch r.State {
	case "idle":
		hub.SetIdle(client, true)
	case "active":
		hub.SetIdle(client, false)
	}
}

// presenceSettings is the first message of a connection.
func presenceSettings(hub *live.Hub, userID uuid.UUID) []byte {
	b, _ := live.Encode(HubPresenceSettings, "user:"+userID.String(), map[string]int64{"awayAfter": hub.AwayAfter().Milliseconds()})
	return b
}

// deploymentCompleted is the second message of a connection.
func deploymentCompleted(userID uuid.UUID, version string) []byte {
	b, _ := live.Encode(HubDeploymentCompleted, "user:"+userID.String(), map[string]string{"version": version})
	return b
}

// The hub's refusals carry the catalogue's codes (the Error schema): the
// handshake's own situations have none, so each takes the code of its kind
// and names the situation in details.reason.
var (
	// errUpgradeRequired is a GET /api/hub that is not a WebSocket handshake.
	errUpgradeRequired = apperr.New(apperr.BadInput, "badRequest", "GET /api/hub opens a WebSocket: send a WebSocket handshake").
				With("reason", "upgradeRequired")
	// errOriginForbidden is a handshake from a page of another site: with a
	// cookie, it would otherwise read the member's events.
	errOriginForbidden = apperr.New(apperr.Forbidden, "forbidden", "this origin may not open the hub").
				With("reason", "originForbidden")
	// errHubClosed is a handshake on a node that is shutting down.
	errHubClosed = apperr.New(apperr.Internal, "internalError", "live events are not available on this node").
			With("reason", "hubUnavailable")
)

func (s *server) hubRoutes(api fiber.Router) {
	api.Get("/hub", s.openHub)
	api.Post("/hub/tickets", only(auth.GroupAuthenticated), s.issueHubTicket)
}

// HubTicketBody answers POST /api/hub/tickets.
type HubTicketBody struct {
	Ticket    string        `json:"ticket"`
	ExpiresOn jsontime.Time `json:"expiresOn"`
}

// issueHubTicket is POST /api/hub/tickets: a browser cannot send an
// Authorization header with a WebSocket handshake, and a session token in
// the URL would be written to access logs, so it asks for a ticket that
// opens one connection within seconds and is then worth nothing.
func (s *server) issueHubTicket(c fiber.Ctx) error {
	p := mustPrincipal(c)
	t, err := s.Commands.Accounts.IssueHubTicket(c.Context(), p.UserID, p.SessionID)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(fiber.StatusCreated).JSON(HubTicketBody{Ticket: t.Ticket, ExpiresOn: jsontime.Of(t.ExpiresOn)})
}

// hubPrincipal is who opens the hub: the Authorization header (already
// resolved by authenticate), else the user_token cookie, else ?ticket=
// (POST /api/hub/tickets), which is used up here. A session token is never
// read from the URL.
func (s *server) hubPrincipal(c fiber.Ctx) (qaccount.Principal, error) {
	if p, ok := principal(c); ok {
		return p, nil
	}
	if token := strings.TrimSpace(c.Cookies("user_token")); token != "" {
		if len(token) > 256 {
			return qaccount.Principal{}, apperr.ErrTokenInvalid
		}
		return s.Queries.Accounts.Authenticate(c.Context(), token)
	}
	ticket := c.Query("ticket")
	if ticket == "" {
		return qaccount.Principal{}, apperr.ErrAuthRequired
	}
	session, err := s.Commands.Accounts.UseHubTicket(c.Context(), ticket)
	if err != nil {
		return qaccount.Principal{}, err
	}
	return s.Queries.Accounts.Session(c.Context(), session)
}

// sameOrigin admits a handshake without Origin (not a browser) or from a
// page of the host the request was sent to. A Host without a port (a proxy
// passing nginx's $host) is compared with the origin's host name alone.
func sameOrigin(c fiber.Ctx) bool {
	origin := c.Get(fiber.HeaderOrigin)
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	host := string(c.RequestCtx().Host())
	if strings.EqualFold(u.Host, host) {
		return true
	}
	return !strings.Contains(host, ":") && strings.EqualFold(u.Hostname(), host)
}

// openHub is GET /api/hub: it authenticates, then upgrades to a WebSocket
// on which the member receives api:messages:broadcast events.
func (s *server) openHub(c fiber.Ctx) error {
	if _, ok := principal(c); !ok && c.Cookies("user_token") == "" && c.Query("ticket") == "" {
		return apperr.ErrAuthRequired
	}
	if s.Hub == nil {
		return errHubClosed
	}
	if !websocket.FastHTTPIsWebSocketUpgrade(c.RequestCtx()) {
		return errUpgradeRequired
	}
	if !sameOrigin(c) {
		return errOriginForbidden
	}
	// Last, so that a ticket is used up only by a handshake that can succeed.
	p, err := s.hubPrincipal(c)
	if err != nil {
		return err
	}
	up := websocket.FastHTTPUpgrader{
		HandshakeTimeout: 10 * time.Second,
		ReadBufferSize:   1 << 10,
		WriteBufferSize:  4 << 10,
		CheckOrigin:      func(*fasthttp.RequestCtx) bool { return true }, // checked above
		Error:            func(*fasthttp.RequestCtx, int, error) {},       // answered below, in JSON
	}
	hub := s.Hub
	log := s.Log
	build := s.webBuild
	if err := up.Upgrade(c.RequestCtx(), func(conn *websocket.Conn) { pumpHub(hub, conn, p, build, log) }); err != nil {
		return errUpgradeRequired.Wrap(err)
	}
	return nil
}

// pumpHub serves one connection: this goroutine writes, another reads
// (pongs, and the close), and the hub decides when it ends.
func pumpHub(hub *live.Hub, conn *websocket.Conn, p qaccount.Principal, build string, log *slog.Logger) {
	client, err := hub.Register(p.UserID, p.SessionID, p.ExpiresOn)
	if err != nil {
		code, text := closeFrame(live.ShuttingDown)
		if errors.Is(err, live.ErrSessionEnded) {
			code, text = closeFrame(live.SessionEnded)
		}
		_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, text), time.Now().Add(hubWriteWait))
		_ = conn.Close()
		return
	}
	readDone := make(chan struct{})
	defer func() {
		hub.Unregister(client)
		_ = conn.Close()
		<-readDone // the connection is closed by fasthttp when this returns
	}()
	conn.SetReadLimit(hubReadLimit)
	_ = conn.SetReadDeadline(time.Now().Add(hubPongWait))
	conn.SetPongHandler(func(string) error { return conn.SetReadDeadline(time.Now().Add(hubPongWait)) })
	go func() {
		defer close(readDone)
		for {
			kind, b, err := conn.ReadMessage()
			if err != nil {
				return
			}
			if kind == websocket.TextMessage {
				applyHubReport(hub, client, b)
			}
			_ = conn.SetReadDeadline(time.Now().Add(hubPongWait))
		}
	}()
	ping := time.NewTicker(hubPing)
	defer ping.Stop()
	_ = conn.SetWriteDeadline(time.Now().Add(hubWriteWait))
	if err := conn.WriteMessage(websocket.TextMessage, presenceSettings(hub, p.UserID)); err != nil {
		return
	}
	if err := conn.WriteMessage(websocket.TextMessage, deploymentCompleted(p.UserID, build)); err != nil {
		return
	}
	var frame []byte // the last frame written, its room reused
	var wrote time.Time
	gap := time.NewTimer(hubFrameGap)
	gap.Stop()
	for {
		select {
		case msg := <-client.Messages():
			if wait := hubFrameGap - time.Since(wrote); wait > 0 && 2*len(client.Messages()) < cap(client.Messages()) {
				gap.Reset(wait)
				select {
				case <-gap.C:
				case <-client.HalfFull():
					gap.Stop()
				case <-client.Done():
					// Written before the close: what the node sent
					// last (an organization's deletion to its former
					// member) often comes with the reason it closes.
					gap.Stop()
				case <-readDone:
					return
				}
			}
			_ = conn.SetWriteDeadline(time.Now().Add(hubWriteWait))
			frame = live.AppendFrame(frame, msg, client.Messages())
			if err := conn.WriteMessage(websocket.TextMessage, frame); err != nil {
				return
			}
			wrote = time.Now()
			if cap(frame) > 4*live.FrameBytes {
				frame = nil // a rare large message's room is not kept for the connection's life
			}
		case <-ping.C:
			if err := conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(hubWriteWait)); err != nil {
				return
			}
		case <-client.Done():
			code, text := closeFrame(client.Reason())
			log.Debug("hub connection closed by the node", "user", p.UserID, "reason", text)
			_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, text), time.Now().Add(hubWriteWait))
			return
		case <-readDone:
			return
		}
	}
}

// HubCloseSessionEnded is the close code of a connection whose session was
// signed out or expired: the client should sign in again, not reconnect.
const HubCloseSessionEnded = 4401

func closeFrame(r live.CloseReason) (int, string) {
	switch r {
	case live.SessionEnded:
		return HubCloseSessionEnded, "session ended"
	case live.TooSlow:
		return websocket.CloseTryAgainLater, "too slow"
	case live.ShuttingDown:
		return websocket.CloseGoingAway, "shutting down"
	default:
		return websocket.CloseNormalClosure, ""
	}
}
