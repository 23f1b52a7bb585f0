package httpapi

import (
	"github.com/gofiber/fiber/v3"

	cmdminutes "agora/command/minutes"
	"agora/internal/plumbing/auth"
)

// minutesRoutes serve a Meet Up's AI notes (spec 002 §4 "AI notes
// recording", §7): recording, canceling, and the minutes' edit and delete.
func (s *server) minutesRoutes(api fiber.Router) {
	h := &minutesHandlers{cmd: s.Commands.Minutes, meetings: &meetingHandlers{q: s.Queries.Meetings}}
	authed := only(auth.GroupAuthenticated)
	api.Post("/live-streams/record/:roomId", authed, h.record)
	api.Post("/meetings/:roomId/minutes/cancel", authed, h.cancel)
	api.Patch("/threads/:threadId/meeting/minutes", authed, h.edit)
	api.Delete("/threads/:threadId/meeting/minutes", authed, h.delete)
}

type minutesHandlers struct {
	cmd *cmdminutes.Service
	// meetings answers the Meet Up as the caller reads it afterwards.
	meetings *meetingHandlers
}

func (h *minutesHandlers) record(c fiber.Ctx) error {
	id, err := pathUUID(c, "roomId")
	if err != nil {
		return err
	}
	if err := h.cmd.Record(c.Context(), cmdminutes.Record{Caller: caller(c), RoomID: id}); err != nil {
		return err
	}
	return h.meetings.meeting(c, id)
}

func (h *minutesHandlers) cancel(c fiber.Ctx) error {
	id, err := pathUUID(c, "roomId")
	if err != nil {
		return err
	}
	if err := h.cmd.Cancel(c.Context(), cmdminutes.Cancel{Caller: caller(c), RoomID: id}); err != nil {
		return err
	}
	return h.meetings.meeting(c, id)
}

func (h *minutesHandlers) edit(c fiber.Ctx) error {
	threadID, err := pathUUID(c, "threadId")
	if err != nil {
		return err
	}
	var in struct {
		Content string `json:"content"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	id, err := h.cmd.Edit(c.Context(), cmdminutes.Edit{Caller: caller(c), ThreadID: threadID, Content: in.Content})
	if err != nil {
		return err
	}
	return h.meetings.meeting(c, id)
}

func (h *minutesHandlers) delete(c fiber.Ctx) error {
	threadID, err := pathUUID(c, "threadId")
	if err != nil {
		return err
	}
	if err := h.cmd.Delete(c.Context(), cmdminutes.Delete{Caller: caller(c), ThreadID: threadID}); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
