package httpapi

import (
	"github.com/gofiber/fiber/v3"

	"agora/internal/plumbing/auth"
)

func (s *server) presenceRoutes(api fiber.Router) {
	api.Get("/users/me/status", only(auth.GroupAuthenticated), s.chosenStatus)
	api.Put("/users/me/status", only(auth.GroupAuthenticated), s.setStatus)
}

// chosenStatus is GET /users/me/status: the member's own choice, so that
// every browser of theirs shows it.
func (s *server) chosenStatus(c fiber.Ctx) error {
	status, err := s.Queries.Accounts.ChosenStatus(c.Context(), mustPrincipal(c).UserID)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"status": status})
}

// setStatus is PUT /users/me/status: do-not-disturb, or auto again.
func (s *server) setStatus(c fiber.Ctx) error {
	var in struct {
		Status string `json:"status"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	if err := s.Commands.Accounts.SetStatus(c.Context(), mustPrincipal(c).UserID, in.Status); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
