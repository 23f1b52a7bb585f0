package nullable_test

import (
	"encoding/json"
	"testing"

	"agora/internal/plumbing/nullable"
)

func TestAbsentNullOrValue(t *testing.T) {
	var body struct {
		Name  nullable.Field[string] `json:"name"`
		Image nullable.Field[string] `json:"image"`
		Year  nullable.Field[int]    `json:"year"`
	}
	if err := json.Unmarshal([]byte(`{"name": "Ada", "image": null}`), &body); err != nil {
		t.Fatal(err)
	}
	if !body.Name.Set || body.Name.Value == nil || *body.Name.Value != "Ada" || body.Name.Cleared() {
		t.Errorf("a value: %+v", body.Name)
	}
	if !body.Image.Set || body.Image.Value != nil || !body.Image.Cleared() {
		t.Errorf("null: %+v", body.Image)
	}
	if body.Year.Set || body.Year.Value != nil || body.Year.Cleared() {
		t.Errorf("absent: %+v", body.Year)
	}
	if err := json.Unmarshal([]byte(`{"year": "x"}`), &body); err == nil {
		t.Error("a string for a number is accepted")
	}
	var link struct {
		Link nullable.Field[struct{ URL string }] `json:"link"`
	}
	if err := json.Unmarshal([]byte(`{"link": {"URL": "u", "junk": 1}}`), &link); err == nil {
		t.Error("an unknown field inside a value is accepted")
	}
	if f := nullable.Of(3); !f.Set || *f.Value != 3 {
		t.Errorf("Of: %+v", f)
	}
	if f := nullable.Null[int](); !f.Cleared() {
		t.Errorf("Null: %+v", f)
	}
}
