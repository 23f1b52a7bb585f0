package httpapi

import (
	"github.com/gofiber/fiber/v3"

	"agora/command/community"
	"agora/internal/auth"
)

func (s *server) communityRoutes(api fiber.Router) {
	api.Post("/communities/:communityId/profiles", only(auth.GroupAuthenticated), s.addCommunityProfile)
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
	p := mustPrincipal(c)
	profileID, err := s.Commands.Communities.AddProfile(c.Context(), community.AddProfile{
		CommunityID: id, ActorID: p.UserID, ActorRole: p.Role,
		FirstName: in.FirstName, LastName: in.LastName, Email: in.Email,
		RoleID: deref(in.RoleID), Tags: deref(in.Tags), SendInvitation: in.SendInvitation != nil && *in.SendInvitation,
	})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"id": profileID})
}
