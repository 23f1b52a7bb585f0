package httpapi

import (
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	cmdchat "agora/command/chat"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/nullable"
	"agora/internal/rules/message"
	qchat "agora/query/chat"
)

// chatRoutes serve private chat (spec 002 §7 "Private chat") and the Meet
// Up's chat, whose messages are a private conversation's. They are
// registered before the feed's, whose /threads/{threadId} would otherwise
// take "private" for an id.
func (s *server) chatRoutes(api fiber.Router) {
	h := &chatHandlers{cmd: s.Commands.Chat, q: s.Queries.Chat}
	authed := only(auth.GroupAuthenticated)
	api.Post("/threads/private", authed, h.send)
	api.Get("/channels/private", authed, h.channels)
	api.Get("/channels/private/:channelId/threads", authed, h.conversation)
	api.Post("/channels/private/:channelId/seen", authed, h.seen)
	api.Patch("/threads/private/:threadId", authed, h.edit)
	api.Delete("/threads/private/:threadId", authed, h.delete)
	api.Put("/threads/private/:threadId/reaction", authed, h.react)
	// A Meet Up's chat (spec 002 §4 "Chat in a Meet Up"): a private
	// conversation's messages under the Meet Up's path.
	api.Get("/meetings/:roomId/chat/threads", authed, h.meetupConversation)
	api.Post("/meetings/:roomId/chat/threads", authed, h.meetupSend)
	api.Patch("/meetings/:roomId/chat/threads/:threadId", authed, h.edit)
	api.Delete("/meetings/:roomId/chat/threads/:threadId", authed, h.delete)
	api.Put("/meetings/:roomId/chat/threads/:threadId/reaction", authed, h.react)
}

// room is the path's Meet Up of a Meet Up chat's route, nil on a private
// chat's.
func room(c fiber.Ctx) (*uuid.UUID, error) {
	if c.Params("roomId") == "" {
		return nil, nil
	}
	id, err := pathUUID(c, "roomId")
	if err != nil {
		return nil, err
	}
	return &id, nil
}

type chatHandlers struct {
	cmd *cmdchat.Service
	q   *qchat.Queries
}

// DefaultChannelPage and DefaultMessagePage are the lists' page sizes
// when none is asked for (the client's).
const (
	DefaultChannelPage = 25
	DefaultMessagePage = 20
)

func (h *chatHandlers) send(c fiber.Ctx) error {
	var in struct {
		MemberIDs []string                      `json:"memberIds"`
		Raw       *string                       `json:"raw"`
		Image     nullable.Field[message.Image] `json:"image"`
		File      nullable.Field[message.File]  `json:"file"`
		Link      nullable.Field[message.Link]  `json:"link"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	if in.MemberIDs == nil {
		return apperr.MissingParameters("memberIds")
	}
	id, err := h.cmd.Send(c.Context(), cmdchat.Send{Actor: caller(c), MemberIDs: in.MemberIDs,
		Content: message.Content{Raw: deref(in.Raw), Image: in.Image.Value, File: in.File.Value, Link: in.Link.Value}})
	if err != nil {
		return err
	}
	m, err := h.q.Message(c.Context(), caller(c), id)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(m)
}

func (h *chatHandlers) meetupSend(c fiber.Ctx) error {
	roomID, err := pathUUID(c, "roomId")
	if err != nil {
		return err
	}
	var in struct {
		Raw   *string                       `json:"raw"`
		Image nullable.Field[message.Image] `json:"image"`
		File  nullable.Field[message.File]  `json:"file"`
		Link  nullable.Field[message.Link]  `json:"link"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	id, err := h.cmd.SendInMeetUp(c.Context(), cmdchat.SendInMeetUp{Actor: caller(c), RoomID: roomID,
		Content: message.Content{Raw: deref(in.Raw), Image: in.Image.Value, File: in.File.Value, Link: in.Link.Value}})
	if err != nil {
		return err
	}
	m, err := h.q.MeetUpMessage(c.Context(), caller(c), roomID, id)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(m)
}

func (h *chatHandlers) meetupConversation(c fiber.Ctx) error {
	roomID, err := pathUUID(c, "roomId")
	if err != nil {
		return err
	}
	bad := apperr.Fields{}
	in := qchat.MeetUpConversation{Reader: caller(c), RoomID: roomID,
		CreatedBefore: queryTime(c, "createdBefore", bad), PageSize: queryInt(c, "pageSize", DefaultMessagePage, bad)}
	if err := bad.Err(); err != nil {
		return err
	}
	page, err := h.q.MeetUpConversation(c.Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

func (h *chatHandlers) channels(c fiber.Ctx) error {
	bad := apperr.Fields{}
	in := qchat.Channels{Reader: caller(c), Request: pageRequest(c, DefaultChannelPage, bad), PeerID: queryUUID(c, "peerId", bad)}
	if err := bad.Err(); err != nil {
		return err
	}
	page, err := h.q.Channels(c.Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

func (h *chatHandlers) conversation(c fiber.Ctx) error {
	id, err := pathUUID(c, "channelId")
	if err != nil {
		return err
	}
	bad := apperr.Fields{}
	in := qchat.Conversation{Reader: caller(c), ChannelID: id,
		CreatedBefore: queryTime(c, "createdBefore", bad), PageSize: queryInt(c, "pageSize", DefaultMessagePage, bad)}
	if err := bad.Err(); err != nil {
		return err
	}
	page, err := h.q.Conversation(c.Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

func (h *chatHandlers) seen(c fiber.Ctx) error {
	id, err := pathUUID(c, "channelId")
	if err != nil {
		return err
	}
	if err := h.cmd.Seen(c.Context(), caller(c), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *chatHandlers) edit(c fiber.Ctx) error {
	roomID, err := room(c)
	if err != nil {
		return err
	}
	id, err := pathUUID(c, "threadId")
	if err != nil {
		return err
	}
	var in struct {
		Raw   *string                       `json:"raw"`
		Image nullable.Field[message.Image] `json:"image"`
		File  nullable.Field[message.File]  `json:"file"`
		Link  nullable.Field[message.Link]  `json:"link"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	if err := h.cmd.Edit(c.Context(), cmdchat.Edit{MessageID: id, Actor: caller(c), RoomID: roomID, Raw: in.Raw,
		Image: in.Image, File: in.File, Link: in.Link}); err != nil {
		return err
	}
	return h.message(c, roomID, id)
}

func (h *chatHandlers) delete(c fiber.Ctx) error {
	roomID, err := room(c)
	if err != nil {
		return err
	}
	id, err := pathUUID(c, "threadId")
	if err != nil {
		return err
	}
	if err := h.cmd.Delete(c.Context(), caller(c), roomID, id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *chatHandlers) react(c fiber.Ctx) error {
	roomID, err := room(c)
	if err != nil {
		return err
	}
	id, err := pathUUID(c, "threadId")
	if err != nil {
		return err
	}
	var in struct {
		Reaction nullable.Field[string] `json:"reaction"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	if err := h.cmd.React(c.Context(), cmdchat.React{MessageID: id, Actor: caller(c), RoomID: roomID, Reaction: in.Reaction}); err != nil {
		return err
	}
	return h.message(c, roomID, id)
}

// message answers the message id (of the Meet Up roomID's chat when not
// nil) as the caller sees it.
func (h *chatHandlers) message(c fiber.Ctx, roomID *uuid.UUID, id uuid.UUID) error {
	var m qchat.Message
	var err error
	if roomID != nil {
		m, err = h.q.MeetUpMessage(c.Context(), caller(c), *roomID, id)
	} else {
		m, err = h.q.Message(c.Context(), caller(c), id)
	}
	if err != nil {
		return err
	}
	return c.JSON(m)
}
