package openapi_test

import (
	"encoding/json"
	"slices"
	"testing"

	"agora/httpapi/openapi"
	"agora/internal/rules/notice"
)

// TestNotificationTypesAreTheListedKinds: the document's Notification.type
// enum is the kinds the bell lists (internal/rules/notice), so that a kind
// listed but not documented, or documented but never listed, fails here.
func TestNotificationTypesAreTheListedKinds(t *testing.T) {
	b, err := openapi.JSON()
	if err != nil {
		t.Fatal(err)
	}
	// Only the one schema is read: other enums hold numbers.
	var doc struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	var notification struct {
		Properties struct {
			Type struct {
				Enum []string `json:"enum"`
			} `json:"type"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(doc.Components.Schemas["Notification"], &notification); err != nil {
		t.Fatal(err)
	}
	enum := notification.Properties.Type.Enum
	listed := notice.Names(func(k notice.Kind) bool { return k.Listed })
	if len(enum) == 0 {
		t.Fatal("the document's Notification has no type enum")
	}
	slices.Sort(enum)
	slices.Sort(listed)
	if !slices.Equal(enum, listed) {
		t.Errorf("Notification.type is %v, the listed kinds %v", enum, listed)
	}
}
