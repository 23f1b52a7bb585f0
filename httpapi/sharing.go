package httpapi

import (
	"context"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	cmdcommunity "agora/command/community"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/nullable"
	"agora/internal/rules/membership"
	qcommunity "agora/query/community"
)

// sharingRoutes serve a community's share dialog (spec 000 §2.7, §4): its
// roles, the people who may be given them, the staged and bulk changes,
// and invitations.
func (s *server) sharingRoutes(api fiber.Router) {
	h := &sharingHandlers{cmd: s.Commands.Communities, q: s.Queries.Communities}
	authed := only(auth.GroupAuthenticated)
	api.Get("/communities/:communityId/roles", authed, h.roles)
	api.Get("/communities/:communityId/assignables", authed, h.assignables)
	api.Post("/communities/:communityId/assignments", authed, h.assign)
	api.Post("/communities/:communityId/assignments/bulk", authed, h.assignBulk)
	api.Post("/communities/:communityId/invitations", authed, invitations("communityId", func(ctx context.Context, c auth.Caller, id uuid.UUID, ids []string) (membership.Invited, error) {
		return h.cmd.Invite(ctx, cmdcommunity.Invite{Caller: c, CommunityID: id, ProfileIDs: ids})
	}))
}

type sharingHandlers struct {
	cmd *cmdcommunity.Service
	q   *qcommunity.Queries
}

func (h *sharingHandlers) roles(c fiber.Ctx) error {
	id, err := pathUUID(c, "communityId")
	if err != nil {
		return err
	}
	roles, err := h.q.Roles(c.Context(), caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(roles)
}

// selection reads the share dialog's list parameters.
func selection(c fiber.Ctx) membership.Selection {
	return membership.Selection{Keyword: c.Query("keyword"), PresetFilter: c.Query("presetFilter"), Filters: c.Query("filters")}
}

func (h *sharingHandlers) assignables(c fiber.Ctx) error {
	id, err := pathUUID(c, "communityId")
	if err != nil {
		return err
	}
	bad := apperr.Fields{}
	in := qcommunity.Assignables{Caller: caller(c), Request: pageRequest(c, qcommunity.DefaultAssignablesPage, bad),
		CommunityID: id, Selection: selection(c), Sort: c.Query("sort")}
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

func (h *sharingHandlers) assign(c fiber.Ctx) error {
	id, err := pathUUID(c, "communityId")
	if err != nil {
		return err
	}
	var in []struct {
		RoleID      *string  `json:"roleId"`
		AssigneeIDs []string `json:"assigneeIds"`
	}
	if err := decodeArray(c, &in); err != nil {
		return err
	}
	staged := make([]membership.Staged, len(in))
	for i, a := range in {
		staged[i] = membership.Staged{RoleID: a.RoleID, AssigneeIDs: a.AssigneeIDs}
	}
	n, err := h.cmd.Assign(c.Context(), cmdcommunity.Assign{Caller: caller(c), CommunityID: id, Assignments: staged})
	if err != nil {
		return err
	}
	return c.JSON(n)
}

func (h *sharingHandlers) assignBulk(c fiber.Ctx) error {
	id, err := pathUUID(c, "communityId")
	if err != nil {
		return err
	}
	var in struct {
		RoleID       nullable.Field[string] `json:"roleId"`
		Keyword      string                 `json:"keyword"`
		PresetFilter string                 `json:"presetFilter"`
		Filters      string                 `json:"filters"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	// roleId must be sent: null removes everyone selected, so a body that
	// forgot it must not.
	if !in.RoleID.Set {
		return apperr.MissingParameters("roleId")
	}
	n, err := h.cmd.AssignBulk(c.Context(), cmdcommunity.AssignBulk{Caller: caller(c), CommunityID: id, RoleID: in.RoleID.Value,
		Selection: membership.Selection{Keyword: in.Keyword, PresetFilter: in.PresetFilter, Filters: in.Filters}})
	if err != nil {
		return err
	}
	return c.JSON(n)
}

// invitations answers POST …/{param}/invitations of a forum, a community
// or an organization: the profile ids of the body, mailed by invite, and
// what it did.
func invitations(param string, invite func(ctx context.Context, c auth.Caller, id uuid.UUID, profileIDs []string) (membership.Invited, error)) fiber.Handler {
	return func(c fiber.Ctx) error {
		id, err := pathUUID(c, param)
		if err != nil {
			return err
		}
		var in struct {
			ProfileIDs []string `json:"profileIds"`
		}
		if err := decode(c, &in); err != nil {
			return err
		}
		out, err := invite(c.Context(), caller(c), id, in.ProfileIDs)
		if err != nil {
			return err
		}
		return c.JSON(out)
	}
}
