package httpapi

import (
	"github.com/gofiber/fiber/v3"

	"agora/httpapi/openapi"
)

// serveOpenAPI answers the API contract (httpapi/openapi/openapi.yaml) as
// JSON; a test fails when a route is missing from it or a response breaks it.
func serveOpenAPI(c fiber.Ctx) error {
	b, err := openapi.JSON()
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(b)
}
