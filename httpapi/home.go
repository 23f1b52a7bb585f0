package httpapi

import (
	"strconv"

	"github.com/gofiber/fiber/v3"

	"agora/internal/apperr"
	"agora/internal/auth"
	qcommunity "agora/query/community"
)

// homeRoutes serve the home page: the caller's communities and forums.
func (s *server) homeRoutes(api fiber.Router) {
	q := qcommunity.New(s.DB)
	api.Get("/communities", only(auth.GroupAuthenticated), func(c fiber.Ctx) error {
		in := qcommunity.Mine{UserID: mustPrincipal(c).UserID, Page: 1, PageSize: qcommunity.MaxPageSize, Keyword: c.Query("keyword")}
		bad := map[string]string{}
		for name, dst := range map[string]*int{"page": &in.Page, "pageSize": &in.PageSize} {
			if v := c.Query(name); v != "" {
				n, err := strconv.Atoi(v)
				if err != nil {
					bad[name] = "must be an integer"
					continue
				}
				*dst = n
			}
		}
		if len(bad) > 0 {
			return apperr.Invalid(bad)
		}
		page, err := q.Mine(c.Context(), in)
		if err != nil {
			return err
		}
		return c.JSON(page)
	})
}
