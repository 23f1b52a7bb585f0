package message_test

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"agora/internal/adapters/linkpreview"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/nullable"
	"agora/internal/rules/message"
)

func ptr[T any](v T) *T { return &v }

func TestLinkProblem(t *testing.T) {
	for _, c := range []struct {
		name string
		link message.Link
		want string
	}{
		{"a web page", message.Link{URL: "https://example.org/a"}, ""},
		{"with its preview", message.Link{URL: "https://example.org/a", ViewerType: ptr("external"),
			Preview: &linkpreview.Preview{Title: "A page", Image: "https://example.org/a.png"}}, ""},
		{"not the web", message.Link{URL: "ftp://example.org/a"}, "url must be an http(s) URL"},
		{"no URL", message.Link{}, "url must be an http(s) URL"},
		{"an unknown viewer", message.Link{URL: "https://example.org/a", ViewerType: ptr("frame")},
			"viewerType must be embedded, external or other"},
		{"a preview image elsewhere than the web", message.Link{URL: "https://example.org/a",
			Preview: &linkpreview.Preview{Image: "javascript:alert(1)"}}, "preview.image must be an http(s) URL"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.link.Problem(); got != c.want {
				t.Errorf("Problem() = %q, want %q", got, c.want)
			}
		})
	}
}

func TestContentCheck(t *testing.T) {
	for _, c := range []struct {
		name    string
		content message.Content
		max     int
		raw     string
		fields  apperr.Fields
	}{
		{"text within the bound, trimmed", message.Content{Raw: "  hello  "}, 5, "hello", apperr.Fields{}},
		{"characters, not bytes, are counted", message.Content{Raw: "ééééé"}, 5, "ééééé", apperr.Fields{}},
		{"text past the bound", message.Content{Raw: "hello!"}, 5, "hello!", apperr.Fields{"raw": "must be at most 5 characters"}},
		{"no text is the use case's to refuse", message.Content{Raw: "   "}, 5, "", apperr.Fields{}},
		{"a bad link", message.Content{Raw: "x", Link: &message.Link{URL: "mailto:a@b"}}, 5, "x",
			apperr.Fields{"link": "url must be an http(s) URL"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := apperr.Fields{}
			c.content.Check(f, c.max)
			if c.content.Raw != c.raw {
				t.Errorf("Raw = %q, want %q", c.content.Raw, c.raw)
			}
			if len(f) != len(c.fields) {
				t.Fatalf("fields = %v, want %v", f, c.fields)
			}
			for k, v := range c.fields {
				if f[k] != v {
					t.Errorf("fields[%q] = %q, want %q", k, f[k], v)
				}
			}
		})
	}
}

func TestEdited(t *testing.T) {
	img, file := uuid.New(), uuid.New()
	stored := message.Stored{
		Raw:   "before",
		Image: []byte(`{"id":"` + img.String() + `","name":"a.png"}`),
		File:  []byte(`{"id":"` + file.String() + `","name":"a.pdf","mediaType":"application/pdf"}`),
		Link:  []byte(`{"url":"https://example.org/"}`),
	}

	t.Run("nothing sent keeps everything", func(t *testing.T) {
		c, prevImage, prevFile, err := stored.Edited(message.Edit{})
		if err != nil {
			t.Fatal(err)
		}
		if prevImage != img || prevFile != file {
			t.Errorf("previous uploads = %v, %v; want %v, %v", prevImage, prevFile, img, file)
		}
		if c.Raw != "before" || c.Image == nil || c.File == nil || c.Link == nil || c.Link.URL != "https://example.org/" {
			t.Fatalf("content = %+v, want the stored one", c)
		}
		// The stored image is the upload it names, kept unchecked.
		if c.Image.Kept() != img {
			t.Errorf("Kept() = %v, want %v", c.Image.Kept(), img)
		}
		// The stored file names its upload by id, as a client may.
		if c.File.ID == nil || *c.File.ID != file.String() {
			t.Errorf("file id = %v, want %v", c.File.ID, file)
		}
	})

	t.Run("null clears, a value replaces", func(t *testing.T) {
		c, prevImage, _, err := stored.Edited(message.Edit{
			Raw:   ptr("after"),
			Image: nullable.Of(message.Image{URL: "https://elsewhere.example/b.png"}),
			File:  nullable.Null[message.File](),
			Link:  nullable.Null[message.Link](),
		})
		if err != nil {
			t.Fatal(err)
		}
		if c.Raw != "after" || c.File != nil || c.Link != nil {
			t.Errorf("content = %+v, want the new text, no file, no link", c)
		}
		if c.Image == nil || c.Image.URL != "https://elsewhere.example/b.png" || c.Image.Kept() != uuid.Nil {
			t.Errorf("image = %+v, want the one sent, unkept", c.Image)
		}
		if prevImage != img {
			t.Errorf("previous image = %v, want %v (its upload goes once replaced)", prevImage, img)
		}
	})

	t.Run("a message with nothing attached", func(t *testing.T) {
		c, prevImage, prevFile, err := message.Stored{Raw: "text"}.Edited(message.Edit{})
		if err != nil {
			t.Fatal(err)
		}
		if c.Image != nil || c.File != nil || c.Link != nil || prevImage != uuid.Nil || prevFile != uuid.Nil {
			t.Errorf("content = %+v, previous %v %v; want none", c, prevImage, prevFile)
		}
	})

	t.Run("stored content that is not JSON", func(t *testing.T) {
		if _, _, _, err := (message.Stored{Link: []byte("{")}).Edited(message.Edit{}); err == nil {
			t.Error("Edited accepted a broken link column")
		}
	})
}

func TestPrevUploads(t *testing.T) {
	id := uuid.New()
	image, file := message.PrevUploads([]byte(`{"id":"`+id.String()+`","name":"a"}`), []byte("not json"))
	if image != id || file != uuid.Nil {
		t.Errorf("PrevUploads = %v, %v; want %v, nil", image, file, id)
	}
	if image, file := message.PrevUploads(nil, nil); image != uuid.Nil || file != uuid.Nil {
		t.Errorf("PrevUploads(nil, nil) = %v, %v", image, file)
	}
}

func TestJSONOrNull(t *testing.T) {
	got, err := message.JSONOrNull[message.Link](nil)
	if err != nil || got != nil {
		t.Errorf("JSONOrNull(nil) = %v, %v; want SQL NULL", got, err)
	}
	got, err = message.JSONOrNull(&message.Link{URL: "https://example.org/"})
	if err != nil || got == nil || *got != `{"url":"https://example.org/"}` {
		t.Errorf("JSONOrNull(link) = %v, %v", got, err)
	}
	if strings.Contains(*got, "preview") {
		t.Error("an absent preview is left out")
	}
}
