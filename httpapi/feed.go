package httpapi

import (
	"encoding/json"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	cmdfeed "agora/command/feed"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/jsontime"
	"agora/internal/plumbing/nullable"
	"agora/internal/rules/message"
	qfeed "agora/query/feed"
)

// feedRoutes serve the forum feed (spec 001 §7 "Threads and posts"):
// posts, comments, reactions and visits.
func (s *server) feedRoutes(api fiber.Router) {
	h := &feedHandlers{cmd: s.Commands.Feed, q: s.Queries.Feed}
	authed := only(auth.GroupAuthenticated)
	api.Post("/series/:seriesId/threads", authed, h.createThread)
	api.Get("/channels/:channelId/threads", authed, h.channelThreads)
	api.Get("/threads/:threadId", authed, h.thread)
	api.Patch("/threads/:threadId", authed, h.updateThread)
	api.Delete("/threads/:threadId", authed, h.deleteThread)
	api.Post("/threads/:threadId/replies", authed, h.createReply)
	api.Patch("/threads/:threadId/replies/:replyId", authed, h.updateReply)
	api.Delete("/threads/:threadId/replies/:replyId", authed, h.deleteReply)
	api.Put("/threads/:threadId/reaction", authed, h.react)
	api.Put("/threads/:threadId/replies/:replyId/reaction", authed, h.react)
	api.Get("/thread/:threadId/reactions", authed, h.reactions)
	api.Post("/series/:seriesId/visits", authed, h.visit)
	api.Get("/series/:seriesId/visits", authed, h.lastVisit)
	api.Get("/sharedposts/new", authed, h.newPosts)
	api.Post("/activities", authed, h.recordActivity)
}

// newPosts is GET /sharedposts/new: the forums with posts new to the
// caller, optionally of one community.
func (h *feedHandlers) newPosts(c fiber.Ctx) error {
	bad := apperr.Fields{}
	in := qfeed.NewPosts{Caller: caller(c), CommunityID: queryUUID(c, "communityId", bad)}
	if err := bad.Err(); err != nil {
		return err
	}
	page, err := h.q.NewPosts(c.Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

// activityBody is POST /activities' body (spec 001 §7).
type activityBody struct {
	ContextKey *string                  `json:"contextKey"`
	ObjectType *string                  `json:"objectType"`
	VerbType   *string                  `json:"verbType"`
	Data       json.RawMessage          `json:"data"`
	Recipients []uuid.UUID              `json:"recipients"`
	Context    *cmdfeed.ActivityContext `json:"context"`
	ActorID    *uuid.UUID               `json:"actorId"`
}

func (h *feedHandlers) recordActivity(c fiber.Ctx) error {
	var b activityBody
	if err := decode(c, &b); err != nil {
		return err
	}
	var missing []string
	for name, v := range map[string]*string{"contextKey": b.ContextKey, "objectType": b.ObjectType, "verbType": b.VerbType} {
		if v == nil {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return apperr.MissingParameters(missing...)
	}
	a, err := h.cmd.RecordActivity(c.Context(), cmdfeed.Activity{Actor: caller(c), ContextKey: *b.ContextKey, ObjectType: *b.ObjectType,
		VerbType: *b.VerbType, Data: b.Data, Recipients: b.Recipients, Context: b.Context, ActorID: b.ActorID})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(a)
}

type feedHandlers struct {
	cmd *cmdfeed.Service
	q   *qfeed.Queries
}

// postBody is the body of a new post or an edit. The client sends the
// mentions and hashtags it saw; the server reads its own from raw.
type postBody struct {
	ChannelID *string                       `json:"channelId"`
	Raw       *string                       `json:"raw"`
	Image     nullable.Field[message.Image] `json:"image"`
	File      nullable.Field[message.File]  `json:"file"`
	Link      nullable.Field[message.Link]  `json:"link"`
	Hashtags  []string                      `json:"hashtags"`
	Mentions  []string                      `json:"mentions"`
	Meeting   json.RawMessage               `json:"meeting"`
	Type      *string                       `json:"type"`
	CreatorAs *string                       `json:"creatorAs"`
}

func meetingSet(m json.RawMessage) bool { return len(m) > 0 && string(m) != "null" }

func (h *feedHandlers) createThread(c fiber.Ctx) error {
	seriesID, err := pathUUID(c, "seriesId")
	if err != nil {
		return err
	}
	var in postBody
	if err := decode(c, &in); err != nil {
		return err
	}
	id, err := h.cmd.CreateThread(c.Context(), cmdfeed.CreateThread{
		SeriesID: seriesID, Actor: caller(c), ChannelID: in.ChannelID,
		Content: message.Content{Raw: deref(in.Raw), Image: in.Image.Value, File: in.File.Value, Link: in.Link.Value},
		Type:    deref(in.Type), CreatorAs: deref(in.CreatorAs), MeetingSet: meetingSet(in.Meeting),
	})
	if err != nil {
		return err
	}
	t, err := h.q.Thread(c.Context(), caller(c), id)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(t)
}

func (h *feedHandlers) channelThreads(c fiber.Ctx) error {
	channelID, err := pathUUID(c, "channelId")
	if err != nil {
		return err
	}
	bad := apperr.Fields{}
	in := qfeed.ChannelThreads{ChannelID: channelID, Viewer: caller(c),
		CreatedBefore: queryTime(c, "createdBefore", bad), PageSize: queryInt(c, "pageSize", qfeed.DefaultPageSize, bad), Hashtag: c.Query("hashtag")}
	if err := bad.Err(); err != nil {
		return err
	}
	page, err := h.q.ChannelThreads(c.Context(), in)
	if err != nil {
		return err
	}
	return sendAppended(c, page.AppendJSON)
}

func (h *feedHandlers) thread(c fiber.Ctx) error {
	id, err := pathUUID(c, "threadId")
	if err != nil {
		return err
	}
	t, err := h.q.Thread(c.Context(), caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(t)
}

func (h *feedHandlers) updateThread(c fiber.Ctx) error {
	id, err := pathUUID(c, "threadId")
	if err != nil {
		return err
	}
	var in struct {
		Raw      *string                       `json:"raw"`
		Image    nullable.Field[message.Image] `json:"image"`
		File     nullable.Field[message.File]  `json:"file"`
		Link     nullable.Field[message.Link]  `json:"link"`
		Hashtags []string                      `json:"hashtags"`
		Mentions []string                      `json:"mentions"`
		Meeting  json.RawMessage               `json:"meeting"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	err = h.cmd.UpdateThread(c.Context(), cmdfeed.UpdateThread{
		ThreadID: id, Actor: caller(c), Raw: in.Raw,
		Image:      in.Image,
		File:       in.File,
		Link:       in.Link,
		MeetingSet: meetingSet(in.Meeting),
	})
	if err != nil {
		return err
	}
	t, err := h.q.Thread(c.Context(), caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(t)
}

func (h *feedHandlers) deleteThread(c fiber.Ctx) error {
	id, err := pathUUID(c, "threadId")
	if err != nil {
		return err
	}
	if err := h.cmd.DeleteThread(c.Context(), cmdfeed.DeleteThread{ThreadID: id, Actor: caller(c)}); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *feedHandlers) createReply(c fiber.Ctx) error {
	id, err := pathUUID(c, "threadId")
	if err != nil {
		return err
	}
	var in struct {
		Raw      *string  `json:"raw"`
		ParentID *string  `json:"parentId"`
		Hashtags []string `json:"hashtags"`
		Mentions []string `json:"mentions"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	replyID, err := h.cmd.CreateReply(c.Context(), cmdfeed.CreateReply{ThreadID: id, Actor: caller(c), Raw: in.Raw, ParentID: in.ParentID})
	if err != nil {
		return err
	}
	r, err := h.q.Reply(c.Context(), caller(c), id, replyID)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(r)
}

func (h *feedHandlers) updateReply(c fiber.Ctx) error {
	id, err := pathUUID(c, "threadId")
	if err != nil {
		return err
	}
	replyID, err := pathUUID(c, "replyId")
	if err != nil {
		return err
	}
	var in struct {
		Raw      *string  `json:"raw"`
		Hashtags []string `json:"hashtags"`
		Mentions []string `json:"mentions"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	if err := h.cmd.UpdateReply(c.Context(), cmdfeed.UpdateReply{ThreadID: id, ReplyID: replyID, Actor: caller(c), Raw: in.Raw}); err != nil {
		return err
	}
	r, err := h.q.Reply(c.Context(), caller(c), id, replyID)
	if err != nil {
		return err
	}
	return c.JSON(r)
}

func (h *feedHandlers) deleteReply(c fiber.Ctx) error {
	id, err := pathUUID(c, "threadId")
	if err != nil {
		return err
	}
	replyID, err := pathUUID(c, "replyId")
	if err != nil {
		return err
	}
	if err := h.cmd.DeleteReply(c.Context(), cmdfeed.DeleteReply{ThreadID: id, ReplyID: replyID, Actor: caller(c)}); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// react serves both reaction routes: with replyId it is a comment's.
func (h *feedHandlers) react(c fiber.Ctx) error {
	id, err := pathUUID(c, "threadId")
	if err != nil {
		return err
	}
	var replyID *uuid.UUID
	if c.Params("replyId") != "" {
		r, err := pathUUID(c, "replyId")
		if err != nil {
			return err
		}
		replyID = &r
	}
	var in struct {
		Reaction nullable.Field[string] `json:"reaction"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	err = h.cmd.React(c.Context(), cmdfeed.React{ThreadID: id, ReplyID: replyID, Actor: caller(c), Reaction: in.Reaction})
	if err != nil {
		return err
	}
	sum, err := h.q.Summary(c.Context(), caller(c), id, replyID)
	if err != nil {
		return err
	}
	return c.JSON(sum)
}

func (h *feedHandlers) reactions(c fiber.Ctx) error {
	id, err := pathUUID(c, "threadId")
	if err != nil {
		return err
	}
	var replyID *uuid.UUID
	if v := c.Query("replyId"); v != "" {
		r, err := uuid.Parse(v)
		if err != nil {
			return apperr.Invalid(map[string]string{"replyId": "must be a UUID"})
		}
		replyID = &r
	}
	list, err := h.q.Reactions(c.Context(), caller(c), id, replyID)
	if err != nil {
		return err
	}
	return c.JSON(list)
}

func (h *feedHandlers) visit(c fiber.Ctx) error {
	id, err := pathUUID(c, "seriesId")
	if err != nil {
		return err
	}
	prev, err := h.cmd.Visit(c.Context(), cmdfeed.Visit{SeriesID: id, Actor: caller(c)})
	if err != nil {
		return err
	}
	return c.JSON(qfeed.VisitView{PreviouslyVisitedOn: jsontime.Ptr(prev)})
}

func (h *feedHandlers) lastVisit(c fiber.Ctx) error {
	id, err := pathUUID(c, "seriesId")
	if err != nil {
		return err
	}
	v, err := h.q.LastVisit(c.Context(), caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(v)
}
