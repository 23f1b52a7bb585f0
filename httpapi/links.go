package httpapi

import (
	"github.com/gofiber/fiber/v3"

	"agora/internal/plumbing/auth"
)

// linkRoutes serve link previews (spec 001 §7 GET /links/preview): what
// the composer's 'Add a Web Link' dialog shows and attaches to a post.
func (s *server) linkRoutes(api fiber.Router) {
	api.Get("/links/preview", only(auth.GroupAuthenticated), s.linkPreview)
}

func (s *server) linkPreview(c fiber.Ctx) error {
	l, err := s.Queries.LinkPreviews.Preview(c.Context(), mustPrincipal(c).UserID.String(), c.Query("url"))
	if err != nil {
		return err
	}
	return c.JSON(l)
}
