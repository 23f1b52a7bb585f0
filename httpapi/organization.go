package httpapi

import (
	"bytes"
	"context"
	"encoding/json"

	"agora/internal/rules/membership"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	cmdorganization "agora/command/organization"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/nullable"
	qorganization "agora/query/organization"
)

// organizationRoutes serve organizations, their people and what the
// caller may manage (spec 000 §7 Organizations).
func (s *server) organizationRoutes(api fiber.Router) {
	h := &organizationHandlers{cmd: s.Commands.Organizations, q: s.Queries.Organizations}
	authed := only(auth.GroupAuthenticated)
	api.Get("/organizations", authed, h.list)
	api.Post("/organizations", authed, h.create)
	api.Get("/organizations/:id", authed, h.get)
	api.Patch("/organizations/:id", authed, h.update)
	api.Delete("/organizations/:id", authed, h.delete)
	api.Get("/organizations/:id/profiles", authed, h.profiles)
	api.Post("/organizations/:id/profiles", authed, h.addProfile)
	api.Post("/organizations/:id/invitations", authed, invitations("id", func(ctx context.Context, c auth.Caller, id uuid.UUID, ids []string) (membership.Invited, error) {
		return h.cmd.Invite(ctx, cmdorganization.Invite{Caller: c, OrganizationID: id, ProfileIDs: ids})
	}))
	api.Patch("/profiles/:id", authed, h.updateProfile)
	api.Get("/permissions", authed, h.permissions)
}

type organizationHandlers struct {
	cmd *cmdorganization.Service
	q   *qorganization.Queries
}

func (h *organizationHandlers) list(c fiber.Ctx) error {
	bad := apperr.Fields{}
	in := qorganization.List{Caller: caller(c), Request: pageRequest(c, qorganization.MaxPageSize, bad),
		Keyword: c.Query("keyword"), Sort: c.Query("sort")}
	if err := bad.Err(); err != nil {
		return err
	}
	page, err := h.q.List(c.Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

func (h *organizationHandlers) create(c fiber.Ctx) error {
	var in struct {
		Name  *string `json:"name"`
		Image *string `json:"image"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	id, err := h.cmd.Create(c.Context(), cmdorganization.Create{Caller: caller(c), Name: in.Name, Image: in.Image})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"id": id})
}

func (h *organizationHandlers) get(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	o, err := h.q.Get(c.Context(), caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(o)
}

func (h *organizationHandlers) update(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	var in struct {
		Name  nullable.Field[string] `json:"name"`
		Image nullable.Field[string] `json:"image"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	// null clears the image only: a name cannot be emptied.
	if in.Name.Cleared() {
		return apperr.Invalid(map[string]string{"name": "must not be null"})
	}
	if err := h.cmd.Update(c.Context(), cmdorganization.Update{Caller: caller(c), OrganizationID: id, Name: in.Name.Value, Image: in.Image}); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *organizationHandlers) delete(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	if err := h.cmd.Delete(c.Context(), cmdorganization.Delete{Caller: caller(c), OrganizationID: id}); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *organizationHandlers) profiles(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	bad := apperr.Fields{}
	in := qorganization.Profiles{Caller: caller(c), Request: pageRequest(c, qorganization.MaxPageSize, bad), OrganizationID: id,
		Keyword: c.Query("keyword"), Sort: c.Query("sort")}
	if err := bad.Err(); err != nil {
		return err
	}
	page, err := h.q.Profiles(c.Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

// profileBody is a profile's fields as the new member dialog sends them.
type profileBody struct {
	FirstName *string `json:"firstName"`
	LastName  *string `json:"lastName"`
	Email     *string `json:"email"`
	RoleID    *string `json:"roleId"`
	Tags      tags    `json:"tags"`
}

func (b profileBody) fields() membership.ProfileFields {
	return membership.ProfileFields{FirstName: b.FirstName, LastName: b.LastName, Email: b.Email, RoleID: b.RoleID, Tags: b.Tags}
}

// tags are sent as one comma-separated string (the dialog's free-form
// tags) or as a list of strings; null or absent is not given.
type tags []string

func (t *tags) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*t = membership.SplitTags(s)
		return nil
	}
	var l []string
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	*t = append(tags{}, l...)
	return nil
}

func (h *organizationHandlers) addProfile(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	var in struct {
		profileBody
		SendInvitation *bool `json:"sendInvitation"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	profileID, err := h.cmd.AddProfile(c.Context(), cmdorganization.AddProfile{Caller: caller(c), OrganizationID: id,
		ProfileFields: in.fields(), SendInvitation: in.SendInvitation != nil && *in.SendInvitation})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"id": profileID})
}

func (h *organizationHandlers) updateProfile(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	var in profileBody
	if err := decode(c, &in); err != nil {
		return err
	}
	if err := h.cmd.UpdateProfile(c.Context(), cmdorganization.UpdateProfile{Caller: caller(c), ProfileID: id, ProfileFields: in.fields()}); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *organizationHandlers) permissions(c fiber.Ctx) error {
	p, err := h.q.Permissions(c.Context(), caller(c), c.Query("type"))
	if err != nil {
		return err
	}
	return c.JSON(p)
}
