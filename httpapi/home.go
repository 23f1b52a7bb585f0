package httpapi

import (
	"github.com/gofiber/fiber/v3"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	qcommunity "agora/query/community"
)

// homeRoutes serve the home page and the Manage Communities dialog: the
// caller's communities, or those they manage, with their forums.
func (s *server) homeRoutes(api fiber.Router) {
	q := s.Queries.Communities
	api.Get("/communities", only(auth.GroupAuthenticated), func(c fiber.Ctx) error {
		bad := apperr.Fields{}
		in := qcommunity.List{Caller: caller(c), Request: pageRequest(c, qcommunity.MaxPageSize, bad), Keyword: c.Query("keyword"),
			PresetFilter: c.Query("presetFilter"), Filters: c.Query("filters"), Sort: c.Query("sort")}
		if err := bad.Err(); err != nil {
			return err
		}
		page, err := q.List(c.Context(), in)
		if err != nil {
			return err
		}
		return c.JSON(page)
	})
}
