package httpapi

import (
	"github.com/gofiber/fiber/v3"

	cmdfeed "agora/command/feed"
	"agora/internal/plumbing/auth"
)

// askerRoutes serve the moderation look at an anonymous question's asker.
// It is a command (each look is recorded), served as a GET because it
// reads: the answer is never cached.
func (s *server) askerRoutes(api fiber.Router) {
	cmd := s.Commands.Feed
	api.Get("/threads/:threadId/asker", only(auth.GroupAuthenticated), func(c fiber.Ctx) error {
		id, err := pathUUID(c, "threadId")
		if err != nil {
			return err
		}
		a, err := cmd.LookAtAsker(c.Context(), cmdfeed.LookAtAsker{ThreadID: id, Actor: caller(c)})
		if err != nil {
			return err
		}
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.JSON(a)
	})
}
