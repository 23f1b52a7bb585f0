// Package message is the body of a message, one rule for the three places
// people write: a forum post (command/feed), a private message
// (command/chat) and the post of a Meet Up (command/meetup). It holds the
// text and attachments as the client sends them (image, file, link), an
// edit of them, how they are stored and attached, how readers get them,
// the reaction kinds, and the order of a channel's messages in time.
package message

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/google/uuid"

	"agora/internal/adapters/linkpreview"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/nullable"
	"agora/internal/rules/plaintext"
)

// Image is a message's picture as the client sends it: an upload of the
// writer's, by a URL given for it (see AttachUploads).
type Image struct {
	URL string `json:"url"`
	// kept is the upload of an image the message already shows, which an
	// edit that leaves the image alone keeps (a message keeps no URL).
	kept uuid.UUID
}

// Kept is the upload of the stored image that an edit left alone
// (Stored.Edited), uuid.Nil for an image the client sent.
func (i *Image) Kept() uuid.UUID { return i.kept }

// File is a message's attached file as the client sends it: an upload of
// the writer's, by its id or by a URL given for it; the name and type
// shown are the upload's own.
type File struct {
	ID        *string `json:"id,omitempty"`
	Name      string  `json:"name"`
	URL       string  `json:"url"`
	MediaType string  `json:"mediaType"`
}

// Link is a message's web link: what GET /api/links/preview answered,
// which the client sends back with the message; only its documented
// fields, within the same bounds (linkpreview.Link.Problem), reach the
// readers.
type Link struct {
	URL        string               `json:"url"`
	MediaType  *string              `json:"mediaType,omitempty"`
	ViewerType *string              `json:"viewerType,omitempty"`
	Preview    *linkpreview.Preview `json:"preview,omitempty"`
}

// Problem is what keeps l from being stored, "" when nothing.
func (l Link) Problem() string {
	checked := linkpreview.Link{URL: l.URL}
	if l.MediaType != nil {
		checked.MediaType = *l.MediaType
	}
	if l.ViewerType != nil {
		checked.ViewerType = *l.ViewerType
	}
	if l.Preview != nil {
		checked.Preview = *l.Preview
	}
	return checked.Problem()
}

// Content is the editable part of a message: its text and attachments.
type Content struct {
	Raw   string
	Image *Image
	File  *File
	Link  *Link
}

// Check trims c's text and adds to f what breaks the rules every message
// keeps: text of at most maxText characters and a link within the
// preview's bounds. What a message needs besides (text, or which
// attachments may stand alone) is each use case's.
func (c *Content) Check(f apperr.Fields, maxText int) {
	c.Raw = plaintext.Trim(c.Raw)
	if utf8.RuneCountInString(c.Raw) > maxText {
		f.Add("raw", fmt.Sprintf("must be at most %d characters", maxText))
	}
	if c.Link != nil {
		if p := c.Link.Problem(); p != "" {
			f.Add("link", p)
		}
	}
}

// Edit is the content of an edit: a nil field keeps its value; a Set
// field with a nil value clears it.
type Edit struct {
	Raw   *string
	Image nullable.Field[Image]
	File  nullable.Field[File]
	Link  nullable.Field[Link]
}

// Stored is the content as a post or private message stores it: the
// image, file and link columns are JSON, nil when there is none.
type Stored struct {
	Raw               string
	Image, File, Link []byte
}

// Edited is the content once e is applied to s, and the uploads s showed
// (an image named again is kept unchecked: see AttachUploads).
func (s Stored) Edited(e Edit) (c Content, prevImage, prevFile uuid.UUID, err error) {
	c.Raw = s.Raw
	for _, u := range []struct {
		b   []byte
		dst any
	}{{s.Image, &c.Image}, {s.File, &c.File}, {s.Link, &c.Link}} {
		if u.b != nil {
			if err := json.Unmarshal(u.b, u.dst); err != nil {
				return c, prevImage, prevFile, fmt.Errorf("message: stored content: %w", err)
			}
		}
	}
	prevImage, prevFile = PrevUploads(s.Image, s.File)
	if c.Image != nil {
		c.Image.kept = prevImage
	}
	if e.Raw != nil {
		c.Raw = *e.Raw
	}
	if e.Image.Set {
		c.Image = e.Image.Value
	}
	if e.File.Set {
		c.File = e.File.Value
	}
	if e.Link.Set {
		c.Link = e.Link.Value
	}
	return c, prevImage, prevFile, nil
}

// storedImage and storedFile are the image and file as a message keeps
// them: the upload's id with the name (and type) to show, never a URL.
type storedImage struct {
	ID   uuid.UUID `json:"id"`
	Name string    `json:"name"`
}

type storedFile struct {
	ID        uuid.UUID `json:"id"`
	Name      string    `json:"name"`
	MediaType string    `json:"mediaType"`
}

// PrevUploads are the upload ids of a message's stored image and file
// (uuid.Nil for one it has not).
func PrevUploads(image, file []byte) (imageID, fileID uuid.UUID) {
	var i storedImage
	var f storedFile
	if image != nil && json.Unmarshal(image, &i) == nil {
		imageID = i.ID
	}
	if file != nil && json.Unmarshal(file, &f) == nil {
		fileID = f.ID
	}
	return imageID, fileID
}

// JSONOrNull marshals v, or returns nil (SQL NULL) for a nil pointer: a
// link, image or file column as stored.
func JSONOrNull[T any](v *T) (*string, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	s := string(b)
	return &s, nil
}
