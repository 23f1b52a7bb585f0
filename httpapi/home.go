package httpapi

import (
	"github.com/gofiber/fiber/v3"

	"agora/internal/apperr"
	"agora/internal/auth"
	qcommunity "agora/query/community"
)

// homeRoutes serve the home page: the caller's communities and forums.
func (s *server) homeRoutes(api fiber.Router) {
	q := s.Queries.Communities
	api.Get("/communities", only(auth.GroupAuthenticated), func(c fiber.Ctx) error {
		bad := apperr.Fields{}
		in := qcommunity.Mine{UserID: mustPrincipal(c).UserID, Request: pageRequest(c, qcommunity.MaxPageSize, bad), Keyword: c.Query("keyword")}
		if err := bad.Err(); err != nil {
			return err
		}
		page, err := q.Mine(c.Context(), in)
		if err != nil {
			return err
		}
		return c.JSON(page)
	})
}
