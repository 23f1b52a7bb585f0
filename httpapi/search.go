package httpapi

import (
	"github.com/gofiber/fiber/v3"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	qsearch "agora/query/search"
)

// searchRoutes are the searches the search read store answers (issue 6):
// the member search of the share and access dialogs, mention candidates,
// hashtag suggestions and the private chat's peers. The AI search has its
// own routes (aisearch.go).
func (s *server) searchRoutes(api fiber.Router) {
	h := &searchHandlers{q: s.Queries.Search}
	authed := only(auth.GroupAuthenticated)
	api.Get("/communities/:communityId/member-search", authed, h.members)
	api.Get("/series/:id/mention-candidates", authed, h.mentionCandidates)
	api.Get("/hashtags", authed, h.hashtags)
	api.Get("/peers", authed, h.peers)
}

type searchHandlers struct {
	q *qsearch.Queries
}

func (h *searchHandlers) members(c fiber.Ctx) error {
	id, err := pathUUID(c, "communityId")
	if err != nil {
		return err
	}
	bad := apperr.Fields{}
	in := qsearch.MemberSearch{Caller: caller(c), CommunityID: id, Text: c.Query("q"), Limit: queryInt(c, "limit", 5, bad)}
	if err := bad.Err(); err != nil {
		return err
	}
	page, err := h.q.Members(c.Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

func (h *searchHandlers) mentionCandidates(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	bad := apperr.Fields{}
	in := qsearch.MentionSearch{Caller: caller(c), SeriesID: id, Text: c.Query("q"), Limit: queryInt(c, "limit", 10, bad)}
	if err := bad.Err(); err != nil {
		return err
	}
	page, err := h.q.MentionCandidates(c.Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

func (h *searchHandlers) hashtags(c fiber.Ctx) error {
	list, err := h.q.Hashtags(c.Context(), caller(c), c.Query("q"))
	if err != nil {
		return err
	}
	return c.JSON(list)
}

func (h *searchHandlers) peers(c fiber.Ctx) error {
	bad := apperr.Fields{}
	in := qsearch.PeerSearch{Caller: caller(c), Text: c.Query("q"), Criterion: c.Query("criterion"),
		Request: pageRequest(c, 25, bad)}
	in.Check(bad)
	if err := bad.Err(); err != nil {
		return err
	}
	page, err := h.q.Peers(c.Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(page)
}
