package httpapi

import (
	"strings"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	cmdmeetup "agora/command/meetup"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	qfeed "agora/query/feed"
	qmeetup "agora/query/meetup"
)

// meetingRoutes serve the Meet Ups (spec 002 §7 "Meet Ups"); a Meet Up's
// post is deleted with DELETE /threads/{id} (feedRoutes).
func (s *server) meetingRoutes(api fiber.Router) {
	h := &meetingHandlers{cmd: s.Commands.Meetings, q: s.Queries.Meetings, feed: s.Queries.Feed, publicURL: s.PublicURL}
	authed := only(auth.GroupAuthenticated)
	api.Post("/series/:seriesId/meetings", authed, h.create)
	api.Get("/meetings", authed, h.list)
	api.Post("/meetings/join-token", authed, h.joinToken)
	api.Get("/meetings/:roomId", authed, h.get)
	api.Put("/meetings/:roomId", authed, h.edit)
	api.Put("/meetings/:roomId/registration", authed, h.register)
	api.Delete("/meetings/:roomId/registration", authed, h.unregister)
	api.Put("/threads/:threadId/meeting/response", authed, h.respond)
	api.Patch("/meetings/:roomId/invite", authed, h.invite)
	api.Get("/meetings/:roomId/breakouts", authed, h.breakouts)
	api.Post("/meetings/:roomId/open-breakouts", authed, h.setBreakouts(true))
	api.Post("/meetings/:roomId/close-breakouts", authed, h.setBreakouts(false))
	api.Post("/meetings/:roomId/join-breakout-room", authed, h.joinBreakout)
	api.Post("/meetings/:roomId/leave-breakout-room", authed, h.leaveBreakout)
	api.Get("/meetings/:roomId/permissions", authed, h.permissions)
	api.Post("/meetings/:roomId/end", authed, h.end)
	api.Get("/meetings/:roomId/calendar.ics", authed, h.calendar)
	api.Post(strings.TrimPrefix(livekitWebhookPath, "/api"), h.webhook)
}

// livekitWebhookPath is where LiveKit posts its webhooks; they carry its
// signature in the Authorization header, not a session of ours:
// authenticate leaves it alone.
const livekitWebhookPath = "/api/livekit/webhook"

type meetingHandlers struct {
	cmd       *cmdmeetup.Service
	q         *qmeetup.Queries
	feed      *qfeed.Queries
	publicURL string
}

// meeting answers the Meet Up roomID as the caller now reads it.
func (h *meetingHandlers) meeting(c fiber.Ctx, roomID uuid.UUID) error {
	m, err := h.q.Get(c.Context(), caller(c), roomID)
	if err != nil {
		return err
	}
	return c.JSON(m)
}

func (h *meetingHandlers) create(c fiber.Ctx) error {
	seriesID, err := pathUUID(c, "seriesId")
	if err != nil {
		return err
	}
	var in cmdmeetup.Form
	if err := decode(c, &in); err != nil {
		return err
	}
	out, err := h.cmd.Create(c.Context(), cmdmeetup.Create{SeriesID: seriesID, Actor: caller(c), Form: in})
	if err != nil {
		return err
	}
	t, err := h.feed.Thread(c.Context(), caller(c), out.PostID)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(t)
}

func (h *meetingHandlers) list(c fiber.Ctx) error {
	bad := apperr.Fields{}
	in := qmeetup.List{Viewer: caller(c), Request: pageRequest(c, 20, bad)}
	if v := c.Query("seriesId"); v != "" {
		id, err := uuid.Parse(v)
		if err != nil {
			bad.Add("seriesId", "must be a UUID")
		}
		in.SeriesID = &id
	}
	if err := bad.Err(); err != nil {
		return err
	}
	page, err := h.q.List(c.Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

func (h *meetingHandlers) get(c fiber.Ctx) error {
	id, err := pathUUID(c, "roomId")
	if err != nil {
		return err
	}
	return h.meeting(c, id)
}

func (h *meetingHandlers) edit(c fiber.Ctx) error {
	id, err := pathUUID(c, "roomId")
	if err != nil {
		return err
	}
	var in cmdmeetup.Form
	if err := decode(c, &in); err != nil {
		return err
	}
	if err := h.cmd.Edit(c.Context(), cmdmeetup.Edit{RoomID: id, Actor: caller(c), Form: in}); err != nil {
		return err
	}
	return h.meeting(c, id)
}

func (h *meetingHandlers) register(c fiber.Ctx) error {
	id, err := pathUUID(c, "roomId")
	if err != nil {
		return err
	}
	if err := h.cmd.Register(c.Context(), caller(c), id); err != nil {
		return err
	}
	return h.meeting(c, id)
}

func (h *meetingHandlers) unregister(c fiber.Ctx) error {
	id, err := pathUUID(c, "roomId")
	if err != nil {
		return err
	}
	if err := h.cmd.Unregister(c.Context(), caller(c), id); err != nil {
		return err
	}
	return h.meeting(c, id)
}

func (h *meetingHandlers) respond(c fiber.Ctx) error {
	threadID, err := pathUUID(c, "threadId")
	if err != nil {
		return err
	}
	var in struct {
		Response string `json:"response"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	if err := h.cmd.Respond(c.Context(), cmdmeetup.Respond{ThreadID: threadID, Actor: caller(c), Response: in.Response}); err != nil {
		return err
	}
	m, err := h.q.OfPost(c.Context(), caller(c), threadID)
	if err != nil {
		return err
	}
	return c.JSON(m)
}

func (h *meetingHandlers) invite(c fiber.Ctx) error {
	id, err := pathUUID(c, "roomId")
	if err != nil {
		return err
	}
	var in struct {
		Invitees map[string]*string `json:"invitees"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	if err := h.cmd.Invite(c.Context(), cmdmeetup.Invite{RoomID: id, Actor: caller(c), Invitees: in.Invitees}); err != nil {
		return err
	}
	return h.meeting(c, id)
}

func (h *meetingHandlers) breakouts(c fiber.Ctx) error {
	id, err := pathUUID(c, "roomId")
	if err != nil {
		return err
	}
	b, err := h.q.Breakouts(c.Context(), caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(b)
}

func (h *meetingHandlers) setBreakouts(open bool) fiber.Handler {
	return func(c fiber.Ctx) error {
		id, err := pathUUID(c, "roomId")
		if err != nil {
			return err
		}
		if err := h.cmd.SetBreakouts(c.Context(), caller(c), id, open); err != nil {
			return err
		}
		return h.breakouts(c)
	}
}

// peerBody is the body of the breakout moves.
type peerBody struct {
	RoomName string    `json:"roomName"`
	PeerID   uuid.UUID `json:"peerId"`
}

func (h *meetingHandlers) joinBreakout(c fiber.Ctx) error {
	return h.move(c, true)
}

func (h *meetingHandlers) leaveBreakout(c fiber.Ctx) error {
	return h.move(c, false)
}

func (h *meetingHandlers) move(c fiber.Ctx, join bool) error {
	id, err := pathUUID(c, "roomId")
	if err != nil {
		return err
	}
	var in peerBody
	if err := decode(c, &in); err != nil {
		return err
	}
	bad := apperr.Fields{}
	if in.PeerID == uuid.Nil {
		bad.Add("peerId", "must be a user id")
	}
	if join && in.RoomName == "" {
		bad.Add("roomName", "must be a breakout room of the Meet Up")
	}
	if err := bad.Err(); err != nil {
		return err
	}
	if !join {
		in.RoomName = ""
	}
	t, err := h.cmd.Move(c.Context(), cmdmeetup.Move{RoomID: id, Actor: caller(c), RoomName: in.RoomName, PeerID: in.PeerID})
	if err != nil {
		return err
	}
	return c.JSON(t)
}

func (h *meetingHandlers) joinToken(c fiber.Ctx) error {
	var in struct {
		RoomID uuid.UUID `json:"roomId"`
		UserID uuid.UUID `json:"userId"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	t, err := h.cmd.JoinToken(c.Context(), caller(c), in.RoomID, in.UserID)
	if err != nil {
		return err
	}
	return c.JSON(t)
}

func (h *meetingHandlers) permissions(c fiber.Ctx) error {
	id, err := pathUUID(c, "roomId")
	if err != nil {
		return err
	}
	p, err := h.q.Permissions(c.Context(), caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(p)
}

func (h *meetingHandlers) end(c fiber.Ctx) error {
	id, err := pathUUID(c, "roomId")
	if err != nil {
		return err
	}
	if err := h.cmd.End(c.Context(), caller(c), id); err != nil {
		return err
	}
	return h.meeting(c, id)
}

func (h *meetingHandlers) calendar(c fiber.Ctx) error {
	id, err := pathUUID(c, "roomId")
	if err != nil {
		return err
	}
	base := h.publicURL
	if base == "" {
		base = c.BaseURL()
	}
	ics, err := h.q.Calendar(c.Context(), caller(c), id, base)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/calendar; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="meetup.ics"`)
	return c.SendString(ics)
}

func (h *meetingHandlers) webhook(c fiber.Ctx) error {
	if err := h.cmd.Webhook(c.Context(), c.Body(), c.Get(fiber.HeaderAuthorization)); err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}
