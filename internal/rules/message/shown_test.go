package message_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/internal/adapters/blob"
	"agora/internal/rules/message"
)

func links(t *testing.T) *blob.Links {
	t.Helper()
	store, err := blob.New(t.TempDir(), "a secret of the test, long enough")
	if err != nil {
		t.Fatal(err)
	}
	l, err := blob.NewLinks(store, "https://agora.example", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestShown(t *testing.T) {
	l := links(t)
	img, file := uuid.New(), uuid.New()
	image, f, err := message.Shown(l,
		json.RawMessage(`{"id":"`+img.String()+`","name":"a.png"}`),
		json.RawMessage(`{"id":"`+file.String()+`","name":"a.pdf","mediaType":"application/pdf"}`))
	if err != nil {
		t.Fatal(err)
	}
	var si message.ShownImage
	if err := json.Unmarshal(image, &si); err != nil {
		t.Fatal(err)
	}
	// The URL readers get names the upload, which is how a client names it
	// again in an edit.
	if id, ok := blob.IDFromURL(si.URL); !ok || id != img {
		t.Errorf("image URL %q names %v, want %v", si.URL, id, img)
	}
	var sf message.ShownFile
	if err := json.Unmarshal(f, &sf); err != nil {
		t.Fatal(err)
	}
	if sf.ID != file || sf.Name != "a.pdf" || sf.MediaType != "application/pdf" {
		t.Errorf("file = %+v", sf)
	}
	if id, ok := blob.IDFromURL(sf.URL); !ok || id != file {
		t.Errorf("file URL %q names %v, want %v", sf.URL, id, file)
	}
	var keys map[string]any
	_ = json.Unmarshal(image, &keys)
	if len(keys) != 1 {
		t.Errorf("image = %s, want only its url (spec 001 §3)", image)
	}
}

func TestShownNone(t *testing.T) {
	l := links(t)
	for _, stored := range []string{"", "null", `{"name":"no id"}`, "not json"} {
		image, file, err := message.Shown(l, json.RawMessage(stored), json.RawMessage(stored))
		if err != nil || string(image) != "null" || string(file) != "null" {
			t.Errorf("Shown(%q) = %s, %s, %v; want null, null", stored, image, file, err)
		}
	}
}
