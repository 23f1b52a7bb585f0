package httpapi

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/gofiber/fiber/v3"

	"agora/internal/apperr"
)

// TestPaging reads a list's page and pageSize as every paged route does
// (pageRequest), then checks them as the insights lists do (pages of at
// most 100, 20 by default).
func TestPaging(t *testing.T) {
	app := fiber.New()
	app.Get("/", func(c fiber.Ctx) error {
		bad := apperr.Fields{}
		p := pageRequest(c, 20, bad)
		p.Check(bad, 100)
		return c.JSON(fiber.Map{"offset": p.Offset(), "limit": p.PageSize, "bad": bad})
	})
	for _, tc := range []struct {
		page, size    string
		offset, limit int
		bad           []string
	}{
		{"", "", 0, 20, nil},
		{"3", "10", 20, 10, nil},
		{"1", "100", 0, 100, nil},
		{"0", "", 0, 20, []string{"page"}},
		{"x", "101", 0, 20, []string{"page", "pageSize"}},
		{"", "0", 0, 20, []string{"pageSize"}},
	} {
		res, err := app.Test(httptest.NewRequest("GET", "/?page="+tc.page+"&pageSize="+tc.size, nil))
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Offset, Limit int
			Bad           map[string]string
		}
		if err := json.NewDecoder(res.Body).Decode(&got); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, n := range []string{"page", "pageSize"} {
			if _, ok := got.Bad[n]; ok {
				names = append(names, n)
			}
		}
		if !reflect.DeepEqual(names, tc.bad) || (tc.bad == nil && (got.Offset != tc.offset || got.Limit != tc.limit)) {
			t.Errorf("page %q, pageSize %q = %d, %d, bad %v", tc.page, tc.size, got.Offset, got.Limit, got.Bad)
		}
	}
}
