package httpapi

import (
	"context"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	cmdforum "agora/command/forum"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/nullable"
	"agora/internal/rules/membership"
	qforum "agora/query/forum"
)

// forumRoutes serve forums (series) and their access management (spec 001).
func (s *server) forumRoutes(api fiber.Router) {
	h := &forumHandlers{cmd: s.Commands.Forums, q: s.Queries.Forums}
	authed := only(auth.GroupAuthenticated)
	api.Post("/communities/:communityId/series", authed, h.create)
	api.Put("/communities/:communityId/series-order", authed, h.order)
	api.Get("/series", authed, h.list)
	api.Get("/trending/series", authed, h.trending)
	api.Get("/series/:id", authed, h.get)
	api.Patch("/series/:id", authed, h.update)
	api.Delete("/series/:id", authed, h.delete)
	api.Get("/series/:id/members", authed, h.members)
	api.Get("/series/:id/admin-and-experts", authed, h.adminAndExperts)
	api.Get("/series/:id/assignables", authed, h.assignables)
	api.Post("/series/:id/admin-count", authed, h.adminCount)
	api.Post("/series/:id/assignments-invitations-preview", authed, h.preview)
	api.Post("/series/:id/assignments", authed, h.assign)
	api.Put("/series/:id/profiles/:profileId/complimentary", authed, h.complimentary(true))
	api.Delete("/series/:id/profiles/:profileId/complimentary", authed, h.complimentary(false))
	api.Post("/series/:id/invitations", authed, invitations("id", func(ctx context.Context, c auth.Caller, id uuid.UUID, ids []string) (membership.Invited, error) {
		return h.cmd.Invite(ctx, cmdforum.Invite{Caller: c, SeriesID: id, ProfileIDs: ids})
	}))
}

type forumHandlers struct {
	cmd *cmdforum.Service
	q   *qforum.Queries
}

type forumForm struct {
	Name         *string                `json:"name"`
	Description  *string                `json:"description"`
	Image        nullable.Field[string] `json:"image"`
	Exclusivity  *string                `json:"exclusivity"`
	ShareEnabled *bool                  `json:"shareEnabled"`
	Price        *int                   `json:"price"`
	IsFree       *bool                  `json:"isFree"`
}

func (h *forumHandlers) create(c fiber.Ctx) error {
	id, err := pathUUID(c, "communityId")
	if err != nil {
		return err
	}
	var in forumForm
	if err := decode(c, &in); err != nil {
		return err
	}
	seriesID, err := h.cmd.Create(c.Context(), cmdforum.Create{Caller: caller(c), CommunityID: id, Name: in.Name,
		Description: in.Description, Image: in.Image.Value, Exclusivity: in.Exclusivity, ShareEnabled: in.ShareEnabled,
		Price: in.Price, IsFree: in.IsFree})
	if err != nil {
		return err
	}
	f, err := h.q.Get(c.Context(), caller(c), seriesID)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(f)
}

func (h *forumHandlers) update(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	var in struct {
		Name         nullable.Field[string] `json:"name"`
		Description  nullable.Field[string] `json:"description"`
		Image        nullable.Field[string] `json:"image"`
		Exclusivity  nullable.Field[string] `json:"exclusivity"`
		ShareEnabled nullable.Field[bool]   `json:"shareEnabled"`
		Price        nullable.Field[int]    `json:"price"`
		IsFree       nullable.Field[bool]   `json:"isFree"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	// null clears the image only: the other fields cannot be emptied.
	if err := notNull(map[string]bool{
		"name": in.Name.Cleared(), "description": in.Description.Cleared(),
		"exclusivity": in.Exclusivity.Cleared(), "shareEnabled": in.ShareEnabled.Cleared(),
		"price": in.Price.Cleared(), "isFree": in.IsFree.Cleared(),
	}); err != nil {
		return err
	}
	if err := h.cmd.Update(c.Context(), cmdforum.Update{Caller: caller(c), SeriesID: id, Name: in.Name.Value, Description: in.Description.Value,
		Image: in.Image, Exclusivity: in.Exclusivity.Value, ShareEnabled: in.ShareEnabled.Value,
		Price: in.Price.Value, IsFree: in.IsFree.Value}); err != nil {
		return err
	}
	f, err := h.q.Get(c.Context(), caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(f)
}

func (h *forumHandlers) delete(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	if err := h.cmd.Delete(c.Context(), cmdforum.Delete{Caller: caller(c), SeriesID: id}); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *forumHandlers) order(c fiber.Ctx) error {
	id, err := pathUUID(c, "communityId")
	if err != nil {
		return err
	}
	var in struct {
		IDs *[]uuid.UUID `json:"ids"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	if in.IDs == nil {
		return apperr.MissingParameters("ids")
	}
	if err := h.cmd.Order(c.Context(), cmdforum.Order{Caller: caller(c), CommunityID: id, IDs: *in.IDs}); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *forumHandlers) list(c fiber.Ctx) error {
	bad := apperr.Fields{}
	in := qforum.List{Caller: caller(c), Request: pageRequest(c, qforum.MaxPageSize, bad), CommunityID: queryUUID(c, "communityId", bad)}
	if err := bad.Err(); err != nil {
		return err
	}
	page, err := h.q.List(c.Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

func (h *forumHandlers) trending(c fiber.Ctx) error {
	bad := apperr.Fields{}
	in := qforum.Trending{Caller: caller(c), Request: pageRequest(c, 10, bad)}
	if err := bad.Err(); err != nil {
		return err
	}
	page, err := h.q.Trending(c.Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

func (h *forumHandlers) get(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	f, err := h.q.Get(c.Context(), caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(f)
}

func (h *forumHandlers) members(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	bad := apperr.Fields{}
	in := qforum.Members{Caller: caller(c), Request: pageRequest(c, 25, bad), SeriesID: id, Sort: c.Query("sort"), RoleName: c.Query("roleName")}
	if err := bad.Err(); err != nil {
		return err
	}
	page, err := h.q.Members(c.Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

func (h *forumHandlers) adminAndExperts(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	bad := apperr.Fields{}
	in := qforum.AdminAndExperts{Caller: caller(c), Request: pageRequest(c, 100, bad), SeriesID: id}
	if err := bad.Err(); err != nil {
		return err
	}
	page, err := h.q.AdminAndExperts(c.Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

func (h *forumHandlers) assignables(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	bad := apperr.Fields{}
	in := qforum.Assignables{Caller: caller(c), Request: pageRequest(c, 25, bad), SeriesID: id, Keyword: c.Query("keyword")}
	switch v := c.Query("isAssigned"); v {
	case "":
	case "true", "false":
		b := v == "true"
		in.IsAssigned = &b
	default:
		bad.Add("isAssigned", "must be true or false")
	}
	in.Check(bad)
	if err := bad.Err(); err != nil {
		return err
	}
	page, err := h.q.Assignables(c.Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

// stagedBody is a staged state: {"assignments": [{roleId, assigneeIds}]}.
type stagedBody struct {
	Assignments *[]struct {
		RoleID      *string  `json:"roleId"`
		AssigneeIDs []string `json:"assigneeIds"`
	} `json:"assignments"`
}

func (b stagedBody) staged() []cmdforum.Staged {
	out := []cmdforum.Staged{}
	for _, a := range *b.Assignments {
		out = append(out, cmdforum.Staged{RoleID: a.RoleID, AssigneeIDs: a.AssigneeIDs})
	}
	return out
}

func decodeStaged(c fiber.Ctx) (uuid.UUID, []cmdforum.Staged, error) {
	id, err := pathUUID(c, "id")
	if err != nil {
		return id, nil, err
	}
	var in stagedBody
	if err := decode(c, &in); err != nil {
		return id, nil, err
	}
	if in.Assignments == nil {
		return id, nil, apperr.MissingParameters("assignments")
	}
	return id, in.staged(), nil
}

func (h *forumHandlers) adminCount(c fiber.Ctx) error {
	id, staged, err := decodeStaged(c)
	if err != nil {
		return err
	}
	set, err := h.cmd.AdminCount(c.Context(), cmdforum.AdminCount{Caller: caller(c), SeriesID: id, Assignments: staged})
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"selfExclusiveAdminSet": set})
}

func (h *forumHandlers) preview(c fiber.Ctx) error {
	id, staged, err := decodeStaged(c)
	if err != nil {
		return err
	}
	p, err := h.cmd.Preview(c.Context(), cmdforum.Preview{Caller: caller(c), SeriesID: id, Assignments: staged})
	if err != nil {
		return err
	}
	return c.JSON(p)
}

func (h *forumHandlers) assign(c fiber.Ctx) error {
	id, staged, err := decodeStaged(c)
	if err != nil {
		return err
	}
	if err := h.cmd.Assign(c.Context(), cmdforum.Assign{Caller: caller(c), SeriesID: id, Assignments: staged}); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// complimentary gives (PUT) or takes (DELETE) a member's complimentary
// access to a paid forum.
func (h *forumHandlers) complimentary(given bool) fiber.Handler {
	return func(c fiber.Ctx) error {
		id, err := pathUUID(c, "id")
		if err != nil {
			return err
		}
		profileID, err := pathUUID(c, "profileId")
		if err != nil {
			return err
		}
		if err := h.cmd.Complimentary(c.Context(), cmdforum.Complimentary{Caller: caller(c), SeriesID: id,
			ProfileID: profileID, Given: given}); err != nil {
			return err
		}
		return c.SendStatus(fiber.StatusNoContent)
	}
}
