package httpapi

import (
	"github.com/gofiber/fiber/v3"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	qnotifications "agora/query/notifications"
)

// DefaultNotificationPage is the bell's page size when none is asked for.
const DefaultNotificationPage = 20

// notificationRoutes serve a member's notifications (spec 000 §7
// "Notifications and personalization").
func (s *server) notificationRoutes(api fiber.Router) {
	h := &notificationHandlers{q: s.Queries.Notifications}
	api.Get("/notifications", only(auth.GroupAuthenticated), h.list)
}

type notificationHandlers struct {
	q *qnotifications.Queries
}

func (h *notificationHandlers) list(c fiber.Ctx) error {
	bad := apperr.Fields{}
	r := pageRequest(c, DefaultNotificationPage, bad)
	if err := bad.Err(); err != nil {
		return err
	}
	page, err := h.q.List(c.Context(), caller(c), r)
	if err != nil {
		return err
	}
	return c.JSON(page)
}
