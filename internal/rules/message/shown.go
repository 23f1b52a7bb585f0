package message

import (
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"agora/internal/adapters/blob"
)

// A message keeps its image and file as the upload's id (with the name and
// type to show), never as a URL: each read signs a read URL that lives for
// the blob links' short lifetime, so that a message deleted, or a forum
// left, ends access to its files once the URLs it gave out expire.

// ShownImage is a message's image as readers get it (spec 001 §3: image
// (url)).
type ShownImage struct {
	URL string `json:"url"`
}

// ShownFile is a message's file as readers get it (spec 001 §3: id, name,
// url, mediaType).
type ShownFile struct {
	ID        uuid.UUID `json:"id"`
	Name      string    `json:"name"`
	URL       string    `json:"url"`
	MediaType string    `json:"mediaType"`
}

// Shown is what readers get of a stored image and file, a post's or a
// private message's: each with a freshly signed URL. An attachment that
// names no upload (none is stored so) is null rather than shown.
func Shown(links *blob.Links, image, file json.RawMessage) (json.RawMessage, json.RawMessage, error) {
	img, err := signed(links, image, func(a storedFile, url string) any { return ShownImage{URL: url} })
	if err != nil {
		return img, nil, err
	}
	f, err := signed(links, file, func(a storedFile, url string) any {
		return ShownFile{ID: a.ID, Name: a.Name, URL: url, MediaType: a.MediaType}
	})
	return img, f, err
}

// null is what a post without the image or file shows: one value for all,
// as the feed signs the attachments of every post it reads.
var null = json.RawMessage("null")

// signed reads a stored image or file (an image is a file without a media
// type) and answers shown of it with a read URL.
func signed(links *blob.Links, stored json.RawMessage, shown func(storedFile, string) any) (json.RawMessage, error) {
	var a storedFile
	if len(stored) == 0 || string(stored) == "null" || json.Unmarshal(stored, &a) != nil || a.ID == uuid.Nil {
		return null, nil
	}
	url, err := links.Read(a.ID, a.Name)
	if err != nil {
		return null, fmt.Errorf("message: sign attachment: %w", err)
	}
	b, err := json.Marshal(shown(a, url))
	if err != nil {
		return null, err
	}
	return b, nil
}
