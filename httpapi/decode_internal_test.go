package httpapi

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v3"

	"agora/internal/plumbing/apperr"
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

// TestDecodeRefusesWhatJSONWouldMangle: invalid UTF-8, lone surrogates, NUL
// and duplicate keys at any depth are refused as invalidBody, where
// encoding/json would store U+FFFD or keep the last of two keys; what is
// valid still decodes.
func TestDecodeRefusesWhatJSONWouldMangle(t *testing.T) {
	type inner struct {
		B string `json:"b"`
		C string `json:"c"`
	}
	type body struct {
		A   string  `json:"a"`
		In  inner   `json:"in"`
		Arr []inner `json:"arr"`
	}
	s := &server{Application: &Application{Log: slog.New(slog.DiscardHandler)}}
	app := fiber.New(fiber.Config{ErrorHandler: s.handleError})
	app.Post("/", func(c fiber.Ctx) error {
		var b body
		if err := decode(c, &b); err != nil {
			return err
		}
		return c.JSON(b)
	})
	for _, tc := range []struct {
		name, body string
		ok         bool
		want       string // the decoded a when ok, else a part of the error body
	}{
		{"plain", `{"a":"x"}`, true, "x"},
		{"a surrogate pair", `{"a":"\ud83d\ude00"}`, true, "😀"},
		{"an escaped backslash before u", `{"a":"\\ud800"}`, true, `\ud800`},
		{"the same key in sibling objects", `{"arr":[{"b":"1"},{"b":"2"}],"in":{"b":"3"}}`, true, ""},
		{"a key named as an outer one", `{"a":"x","in":{"b":"a","c":"a"}}`, true, "x"},
		{"invalid UTF-8", "{\"a\":\"\xff\"}", false, "UTF-8"},
		{"an overlong encoding", "{\"a\":\"\xc0\xaf\"}", false, "UTF-8"},
		{"an encoded surrogate", "{\"a\":\"\xed\xa0\x80\"}", false, "UTF-8"},
		{"a lone high surrogate", `{"a":"\ud800"}`, false, "surrogate"},
		{"a lone high surrogate at the end", `{"a":"x\uD800"}`, false, "surrogate"},
		{"a lone low surrogate", `{"a":"\udc00x"}`, false, "surrogate"},
		{"two high surrogates", `{"a":"\ud800\ud800"}`, false, "surrogate"},
		{"a high surrogate before a plain escape", `{"a":"\ud800\u0041"}`, false, "surrogate"},
		{"a lone surrogate in a key", `{"\ud800":"x"}`, false, "surrogate"},
		{"NUL", `{"a":"\u0000"}`, false, "NUL"},
		{"a duplicate key", `{"a":"x","a":"y"}`, false, `"field":"a"`},
		{"a duplicate key spelled with an escape", `{"a":"x","\u0061":"y"}`, false, `"field":"a"`},
		{"a duplicate key nested", `{"in":{"b":"1","c":"2","b":"3"}}`, false, `"field":"b"`},
		{"a duplicate key in an array's object", `{"arr":[{"b":"1"},{"c":"1","c":"2"}]}`, false, `"field":"c"`},
		{"a duplicate key after a nested value", `{"in":{"b":"1"},"a":"x","in":{}}`, false, `"field":"in"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/", strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			res, err := app.Test(req)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(res.Body)
			if !tc.ok {
				if res.StatusCode != 400 || !strings.Contains(string(raw), `"code":"invalidBody"`) || !strings.Contains(string(raw), tc.want) {
					t.Errorf("%s → %d %s, want 400 invalidBody with %s", tc.body, res.StatusCode, raw, tc.want)
				}
				return
			}
			var got body
			if res.StatusCode != 200 || json.Unmarshal(raw, &got) != nil || got.A != tc.want {
				t.Errorf("%s → %d %s, want a = %q", tc.body, res.StatusCode, raw, tc.want)
			}
		})
	}
}
