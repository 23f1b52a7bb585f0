package httpapi

import (
	_ "embed"
	"encoding/json"
	"sync"

	"github.com/gofiber/fiber/v3"
	"gopkg.in/yaml.v3"
)

// OpenAPIYAML is the API contract, written by hand beside the handlers; a
// test fails when a route is missing from it or a response breaks it.
//
//go:embed openapi.yaml
var OpenAPIYAML []byte

var openAPIJSON = sync.OnceValues(func() ([]byte, error) {
	var doc any
	if err := yaml.Unmarshal(OpenAPIYAML, &doc); err != nil {
		return nil, err
	}
	return json.Marshal(doc)
})

// OpenAPIJSON is the contract as JSON, as served at /api/openapi.json.
func OpenAPIJSON() ([]byte, error) { return openAPIJSON() }

func serveOpenAPI(c fiber.Ctx) error {
	b, err := openAPIJSON()
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(b)
}
