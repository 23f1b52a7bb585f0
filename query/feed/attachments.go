package feed

import (
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"agora/internal/adapters/blob"
)

// A post keeps its image and file as the upload's id (with the name and
// type to show), never as a URL: each read signs a read URL that lives
// for the blob links' short lifetime, so that a post deleted, or a forum
// left, ends access to its files once the URLs it gave out expire.

// storedAttachment is an image ({id, name}) or a file ({id, name,
// mediaType}) as command/feed stores it.
type storedAttachment struct {
	ID        uuid.UUID `json:"id"`
	Name      string    `json:"name"`
	MediaType string    `json:"mediaType"`
}

// Image is a post's image as readers get it (spec 001 §3: image (url)).
type Image struct {
	URL string `json:"url"`
}

// File is a post's file as readers get it (spec 001 §3: id, name, url,
// mediaType).
type File struct {
	ID        uuid.UUID `json:"id"`
	Name      string    `json:"name"`
	URL       string    `json:"url"`
	MediaType string    `json:"mediaType"`
}

// SignAttachments replaces the stored image and file of p with what its
// readers get: each with a freshly signed URL. An attachment that names no
// upload (none is stored so) is dropped rather than shown.
func (q *Queries) SignAttachments(p *Post) error {
	var err error
	p.Image, p.File, err = SignStored(q.links, p.Image, p.File)
	return err
}

// SignStored is what readers get of a stored image and file, a post's or
// a private message's (both are stored by command/feed's rules).
func SignStored(links *blob.Links, image, file json.RawMessage) (json.RawMessage, json.RawMessage, error) {
	img, err := signed(links, image, func(a storedAttachment, url string) any { return Image{URL: url} })
	if err != nil {
		return img, nil, err
	}
	f, err := signed(links, file, func(a storedAttachment, url string) any {
		return File{ID: a.ID, Name: a.Name, URL: url, MediaType: a.MediaType}
	})
	return img, f, err
}

func signed(links *blob.Links, stored json.RawMessage, shown func(storedAttachment, string) any) (json.RawMessage, error) {
	null := json.RawMessage("null")
	var a storedAttachment
	if len(stored) == 0 || string(stored) == "null" || json.Unmarshal(stored, &a) != nil || a.ID == uuid.Nil {
		return null, nil
	}
	url, err := links.Read(a.ID, a.Name)
	if err != nil {
		return null, fmt.Errorf("feed: sign attachment: %w", err)
	}
	b, err := json.Marshal(shown(a, url))
	if err != nil {
		return null, err
	}
	return b, nil
}
