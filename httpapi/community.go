package httpapi

import (
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"agora/command/community"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/nullable"
	qcommunity "agora/query/community"
)

func (s *server) communityRoutes(api fiber.Router) {
	authed := only(auth.GroupAuthenticated)
	api.Post("/communities/:communityId/profiles", authed, s.addCommunityProfile)
	api.Post("/organizations/:organizationId/communities", authed, s.createCommunity)
	api.Post("/communities/get-highlighted-members", authed, s.highlightedMembers)
	api.Get("/communities/:communityId", authed, s.getCommunity)
	api.Patch("/communities/:communityId", authed, s.updateCommunity)
	api.Delete("/communities/:communityId", authed, s.deleteCommunity)
	api.Get("/communities/:communityId/members", authed, s.communityMembers)
	api.Put("/communities/:communityId/profiles/:profileId/complimentary", authed, s.communityComplimentary(true))
	api.Delete("/communities/:communityId/profiles/:profileId/complimentary", authed, s.communityComplimentary(false))
}

// communityComplimentary gives (PUT) or takes (DELETE) a member's
// complimentary access to a paid community.
func (s *server) communityComplimentary(given bool) fiber.Handler {
	return func(c fiber.Ctx) error {
		id, err := pathUUID(c, "communityId")
		if err != nil {
			return err
		}
		profileID, err := pathUUID(c, "profileId")
		if err != nil {
			return err
		}
		if err := s.Commands.Communities.Complimentary(c.Context(), community.Complimentary{Caller: caller(c),
			CommunityID: id, ProfileID: profileID, Given: given}); err != nil {
			return err
		}
		return c.SendStatus(fiber.StatusNoContent)
	}
}

func (s *server) addCommunityProfile(c fiber.Ctx) error {
	id, err := pathUUID(c, "communityId")
	if err != nil {
		return err
	}
	var in struct {
		FirstName      *string `json:"firstName"`
		LastName       *string `json:"lastName"`
		Email          *string `json:"email"`
		RoleID         *string `json:"roleId"`
		Tags           *string `json:"tags"`
		SendInvitation *bool   `json:"sendInvitation"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	profileID, err := s.Commands.Communities.AddProfile(c.Context(), community.AddProfile{
		Caller: caller(c), CommunityID: id,
		FirstName: in.FirstName, LastName: in.LastName, Email: in.Email,
		RoleID: deref(in.RoleID), Tags: deref(in.Tags), SendInvitation: in.SendInvitation != nil && *in.SendInvitation,
	})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"id": profileID})
}

// communityForm is the body of a new community and of an edit: every
// field may be sent as null, which clears image, video and videoCover and
// is refused for the others (notNull).
type communityForm struct {
	Name           nullable.Field[string] `json:"name"`
	Description    nullable.Field[string] `json:"description"`
	MembershipType nullable.Field[string] `json:"membershipType"`
	Image          nullable.Field[string] `json:"image"`
	Video          nullable.Field[string] `json:"video"`
	VideoCover     nullable.Field[string] `json:"videoCover"`
	SSOAccess      nullable.Field[bool]   `json:"ssoAccess"`
	Price          nullable.Field[int]    `json:"price"`
	IsFree         nullable.Field[bool]   `json:"isFree"`
}

func (f communityForm) form() (community.Form, error) {
	err := notNull(map[string]bool{"name": f.Name.Cleared(), "description": f.Description.Cleared(),
		"membershipType": f.MembershipType.Cleared(), "ssoAccess": f.SSOAccess.Cleared(), "price": f.Price.Cleared(), "isFree": f.IsFree.Cleared()})
	return community.Form{Name: f.Name.Value, Description: f.Description.Value, MembershipType: f.MembershipType.Value,
		Image: f.Image, Video: f.Video, VideoCover: f.VideoCover, SSOAccess: f.SSOAccess.Value, Price: f.Price.Value, IsFree: f.IsFree.Value}, err
}

// notNull refuses the fields of an edit sent as null (cleared true) that
// cannot be emptied.
func notNull(cleared map[string]bool) error {
	bad := apperr.Fields{}
	for name, null := range cleared {
		if null {
			bad.Add(name, "must not be null")
		}
	}
	return bad.Err()
}

func (s *server) createCommunity(c fiber.Ctx) error {
	org, err := pathUUID(c, "organizationId")
	if err != nil {
		return err
	}
	var in communityForm
	if err := decode(c, &in); err != nil {
		return err
	}
	f, err := in.form()
	if err != nil {
		return err
	}
	id, err := s.Commands.Communities.Create(c.Context(), community.Create{Caller: caller(c), OrganizationID: org, Form: f})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"id": id})
}

func (s *server) updateCommunity(c fiber.Ctx) error {
	id, err := pathUUID(c, "communityId")
	if err != nil {
		return err
	}
	var in communityForm
	if err := decode(c, &in); err != nil {
		return err
	}
	f, err := in.form()
	if err != nil {
		return err
	}
	if err := s.Commands.Communities.Update(c.Context(), community.Update{Caller: caller(c), CommunityID: id, Form: f}); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *server) deleteCommunity(c fiber.Ctx) error {
	id, err := pathUUID(c, "communityId")
	if err != nil {
		return err
	}
	if err := s.Commands.Communities.Delete(c.Context(), community.Delete{Caller: caller(c), CommunityID: id}); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *server) getCommunity(c fiber.Ctx) error {
	id, err := pathUUID(c, "communityId")
	if err != nil {
		return err
	}
	v, err := s.Queries.Communities.Get(c.Context(), qcommunity.Get{Caller: caller(c), CommunityID: id})
	if err != nil {
		return err
	}
	return c.JSON(v)
}

func (s *server) communityMembers(c fiber.Ctx) error {
	id, err := pathUUID(c, "communityId")
	if err != nil {
		return err
	}
	bad := apperr.Fields{}
	in := qcommunity.Members{Caller: caller(c), Request: pageRequest(c, qcommunity.MaxPageSize, bad), CommunityID: id,
		Keyword: c.Query("keyword"), Sort: c.Query("sort")}
	if err := bad.Err(); err != nil {
		return err
	}
	page, err := s.Queries.Communities.Members(c.Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

func (s *server) highlightedMembers(c fiber.Ctx) error {
	var in struct {
		CommunityIDs *[]uuid.UUID `json:"communityIds"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	if in.CommunityIDs == nil {
		return apperr.MissingParameters("communityIds")
	}
	out, err := s.Queries.Communities.Highlighted(c.Context(), qcommunity.Highlighted{Caller: caller(c), CommunityIDs: *in.CommunityIDs})
	if err != nil {
		return err
	}
	return c.JSON(out)
}
