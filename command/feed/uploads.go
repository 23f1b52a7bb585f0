package feed

import (
	"context"
	"errors"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/apperr"
	"agora/internal/blob"
	"agora/internal/db"
	"agora/internal/db/gen/table"
)

// Decision (spec 001 §3, §5): a post's image is only "a URL" and a file is
// "id, name, url, mediaType", and nothing in the spec forbids pictures and
// files kept elsewhere on the web, so those stay allowed, as before. What
// points at this server's blob store (a file with an id, or an image or
// file whose URL is a blob's) must be a completed upload of the poster's,
// of the right kind: a post cannot show someone else's upload, a pending
// one, or a file as its picture.

// imageUpload is the upload an image names, if its URL is a blob's.
func imageUpload(img *Image) (uuid.UUID, bool) {
	if img == nil {
		return uuid.Nil, false
	}
	return blob.IDFromURL(img.URL)
}

// fileUpload is the upload a file names by its id, or else by a blob URL;
// badID is an id that is not one.
func fileUpload(f *File) (id uuid.UUID, ok, badID bool) {
	if f == nil {
		return uuid.Nil, false, false
	}
	if f.ID != nil {
		id, err := uuid.Parse(*f.ID)
		if err != nil {
			return uuid.Nil, false, true
		}
		return id, true, false
	}
	id, ok = blob.IDFromURL(f.URL)
	return id, ok, false
}

// attachUploads checks the attachments of c that are uploads and gives
// them the upload's own name, served type and URL, so that a post cannot
// claim another type than the one the blob is served with. prev is the
// post before an edit: an attachment that names the upload it already had
// is kept as it was, unchecked, so that a forum admin may edit the text of
// a member's post that shows the member's upload.
func attachUploads(ctx context.Context, q pgx.Tx, actor uuid.UUID, c *Content, prev Content, f apperr.Fields) error {
	if _, bad := f["image"]; !bad {
		if id, ok := imageUpload(c.Image); ok {
			if prevID, had := imageUpload(prev.Image); had && prevID == id {
				c.Image = prev.Image
			} else {
				u, msg, err := loadUpload(ctx, q, actor, id, "image")
				if err != nil {
					return err
				}
				if msg != "" {
					f.Add("image", msg)
				} else {
					c.Image = &Image{URL: u.url}
				}
			}
		}
	}
	if _, bad := f["file"]; !bad {
		id, ok, badID := fileUpload(c.File)
		switch {
		case badID:
			f.Add("file", "id must be the id of an upload")
		case ok:
			if prevID, had, _ := fileUpload(prev.File); had && prevID == id {
				c.File = prev.File
				break
			}
			u, msg, err := loadUpload(ctx, q, actor, id, "file")
			if err != nil {
				return err
			}
			if msg != "" {
				f.Add("file", msg)
			} else {
				sid := id.String()
				c.File = &File{ID: &sid, Name: u.name, URL: u.url, MediaType: u.mediaType}
			}
		}
	}
	return nil
}

type upload struct {
	name, mediaType, url string
}

// loadUpload reads upload id for an attachment of kind, or says why it
// cannot be attached. Someone else's upload reads as unknown, so that ids
// cannot be probed.
func loadUpload(ctx context.Context, q pgx.Tx, actor, id uuid.UUID, kind string) (upload, string, error) {
	var u upload
	var owner uuid.UUID
	var gotKind, state string
	var mediaType, url *string
	up := table.Uploads
	err := db.QueryRow(ctx, q, SELECT(up.OwnerID, up.Kind, up.State, up.Name, up.MediaType, up.URL).FROM(up).WHERE(up.ID.EQ(UUID(id)))).
		Scan(&owner, &gotKind, &state, &u.name, &mediaType, &url)
	switch {
	case errors.Is(err, pgx.ErrNoRows), err == nil && owner != actor:
		return u, "must be an upload of yours", nil
	case err != nil:
		return u, "", fmt.Errorf("feed: upload: %w", err)
	case state != "complete":
		return u, "the upload is not complete", nil
	case gotKind != kind:
		return u, "must be an upload of kind " + kind, nil
	}
	if mediaType != nil {
		u.mediaType = *mediaType
	}
	if url != nil {
		u.url = *url
	}
	return u, "", nil
}
