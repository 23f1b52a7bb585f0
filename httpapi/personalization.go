package httpapi

import (
	"encoding/json"

	"github.com/gofiber/fiber/v3"

	cmdaccount "agora/command/account"
	"agora/internal/plumbing/auth"
)

// personalizationRoutes serve a user's personalization (spec 000 §7), the
// flat object of dotted keys their browsers keep and the server reads.
func (s *server) personalizationRoutes(api fiber.Router) {
	authed := only(auth.GroupAuthenticated)
	api.Get("/users/:userId/personalization", authed, s.personalization)
	api.Patch("/users/:userId/personalization", authed, s.personalize)
}

func (s *server) personalization(c fiber.Ctx) error {
	id, err := pathUUID(c, "userId")
	if err != nil {
		return err
	}
	data, err := s.Queries.Accounts.Personalization(c.Context(), caller(c), id)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(data)
}

func (s *server) personalize(c fiber.Ctx) error {
	id, err := pathUUID(c, "userId")
	if err != nil {
		return err
	}
	var data map[string]json.RawMessage
	if err := decode(c, &data); err != nil {
		return err
	}
	if err := s.Commands.Accounts.Personalize(c.Context(), cmdaccount.Personalize{Actor: caller(c), UserID: id, Data: data}); err != nil {
		return err
	}
	return s.personalization(c)
}
