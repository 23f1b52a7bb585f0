package message

import (
	"context"
	"errors"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/adapters/blob"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// Decision (spec 001 §3, §5): a message's image and file are uploads of
// the writer's own, completed, of the right kind, and on no other message.
// An image or file elsewhere on the web is refused: the file viewer would
// frame a page of anyone's choosing, and an image URL would tell another
// site who reads the message. A page elsewhere is the message's link,
// shown as a link. The client names a file's upload by its id, or by a URL
// it was given for it (the spec's image has only a url); the message keeps
// the id, never a URL, and each read signs a short-lived URL (Shown). An
// upload belongs to its message: it goes with the message, or when an
// edit replaces it.

// Owner is what an upload is attached to: a post (uploads.thread_id) or a
// private message (uploads.private_message_id), which take their uploads
// by the same rules.
type Owner struct {
	column ColumnString
	id     uuid.UUID
}

// PostOwner is the post id as the owner of its uploads.
func PostOwner(id uuid.UUID) Owner { return Owner{table.Uploads.ThreadID, id} }

// PrivateOwner is the private message id as the owner of its uploads.
func PrivateOwner(id uuid.UUID) Owner { return Owner{table.Uploads.PrivateMessageID, id} }

// holds tells whether an upload attached to thread or message (nil when
// not) is attached to o.
func (o Owner) holds(thread, message *uuid.UUID) bool {
	post := o.column == ColumnString(table.Uploads.ThreadID)
	return (thread == nil || post && *thread == o.id) && (message == nil || !post && *message == o.id)
}

// Attachments are a message's uploads once checked: what to store, and
// the ids to attach.
type Attachments struct {
	image *storedImage
	file  *storedFile
}

// Stored is the image and file columns to store: JSON, or nil (SQL NULL)
// when there is none.
func (a Attachments) Stored() (image, file *string, err error) {
	if image, err = JSONOrNull(a.image); err != nil {
		return nil, nil, err
	}
	file, err = JSONOrNull(a.file)
	return image, file, err
}

func (a Attachments) ids() []uuid.UUID {
	var ids []uuid.UUID
	if a.image != nil {
		ids = append(ids, a.image.ID)
	}
	if a.file != nil {
		ids = append(ids, a.file.ID)
	}
	return ids
}

// ImageAttachment is the complete image upload id, named name, as a post
// keeps it: what a post written outside the commands (the demo
// discussions, app/demo) stores (Stored) and binds (Bind), so that its
// image reads like any other.
func ImageAttachment(id uuid.UUID, name string) Attachments {
	return Attachments{image: &storedImage{ID: id, Name: name}}
}

// uploadID is the upload an attachment names: its id, else the blob its URL
// is; msg says why there is none.
func uploadID(id *string, url string) (uuid.UUID, string) {
	if id != nil {
		u, err := uuid.Parse(*id)
		if err != nil {
			return uuid.Nil, "id must be the id of an upload"
		}
		return u, ""
	}
	if u, ok := blob.IDFromURL(url); ok {
		return u, ""
	}
	return uuid.Nil, "must be an upload of yours; a page elsewhere goes in link"
}

// AttachUploads checks the image and file of c for owner and returns what
// it keeps of them. prevImage and prevFile are the uploads the message had
// before an edit: naming one again keeps it unchecked, so that a forum
// admin may edit the text of a member's post that shows the member's
// upload.
func AttachUploads(ctx context.Context, tx pgx.Tx, actor uuid.UUID, owner Owner, c Content, prevImage, prevFile uuid.UUID, f apperr.Fields) (Attachments, error) {
	var a Attachments
	if _, bad := f["image"]; !bad && c.Image != nil {
		id, msg := c.Image.kept, ""
		if id == uuid.Nil {
			id, msg = uploadID(nil, c.Image.URL)
		}
		if msg == "" {
			u, m, err := loadUpload(ctx, tx, actor, owner, id, "image", id == prevImage)
			if err != nil {
				return a, err
			}
			msg = m
			a.image = &storedImage{ID: id, Name: u.name}
		}
		if msg != "" {
			f.Add("image", msg)
		}
	}
	if _, bad := f["file"]; !bad && c.File != nil {
		id, msg := uploadID(c.File.ID, c.File.URL)
		if msg == "" {
			u, m, err := loadUpload(ctx, tx, actor, owner, id, "file", id == prevFile)
			if err != nil {
				return a, err
			}
			msg = m
			a.file = &storedFile{ID: id, Name: u.name, MediaType: u.mediaType}
		}
		if msg != "" {
			f.Add("file", msg)
		}
	}
	return a, nil
}

type upload struct {
	name, mediaType string
}

// loadUpload reads upload id for an attachment of kind to owner, or says
// why it cannot be attached, and locks its row, so that the sweep of
// unattached uploads waits for the message to be written. kept is an
// upload the message already shows. Someone else's upload reads as
// unknown, so that ids cannot be probed.
func loadUpload(ctx context.Context, tx pgx.Tx, actor uuid.UUID, owner Owner, id uuid.UUID, kind string, kept bool) (upload, string, error) {
	var u upload
	var uploader uuid.UUID
	var gotKind, state string
	var mediaType *string
	var thread, message *uuid.UUID
	up := table.Uploads
	err := db.QueryRow(ctx, tx, SELECT(up.OwnerID, up.Kind, up.State, up.Name, up.MediaType, up.ThreadID, up.PrivateMessageID).FROM(up).
		WHERE(up.ID.EQ(UUID(id))).FOR(UPDATE())).
		Scan(&uploader, &gotKind, &state, &u.name, &mediaType, &thread, &message)
	switch {
	case errors.Is(err, pgx.ErrNoRows), err == nil && uploader != actor && !kept:
		return u, "must be an upload of yours", nil
	case err != nil:
		return u, "", fmt.Errorf("message: upload: %w", err)
	case state != "complete":
		return u, "the upload is not complete", nil
	case gotKind != kind:
		return u, "must be an upload of kind " + kind, nil
	case !owner.holds(thread, message):
		return u, "the upload is on another post or message", nil
	}
	if mediaType != nil {
		u.mediaType = *mediaType
	}
	return u, "", nil
}

// Bind attaches a's uploads to owner and deletes the rows of the uploads
// it showed before and no longer does, returning their ids: the caller
// removes their blobs once the transaction commits.
func (a Attachments) Bind(ctx context.Context, tx pgx.Tx, owner Owner, now time.Time) ([]uuid.UUID, error) {
	up := table.Uploads
	ids := a.ids()
	if len(ids) > 0 {
		if _, err := db.Exec(ctx, tx, up.UPDATE().SET(owner.column.SET(UUID(owner.id)), up.AttachedOn.SET(TimestampzT(now))).
			WHERE(up.ID.IN(db.UUIDs(ids)...).AND(up.ThreadID.IS_NULL()).AND(up.PrivateMessageID.IS_NULL()))); err != nil {
			return nil, fmt.Errorf("message: attach uploads: %w", err)
		}
	}
	gone := owner.column.EQ(UUID(owner.id))
	if len(ids) > 0 {
		gone = gone.AND(up.ID.NOT_IN(db.UUIDs(ids)...))
	}
	return detach(ctx, tx, gone)
}

// DetachAll deletes the upload rows of owner, which is being deleted,
// returning their ids: the caller removes their blobs once the transaction
// commits.
func DetachAll(ctx context.Context, tx pgx.Tx, owner Owner) ([]uuid.UUID, error) {
	return detach(ctx, tx, owner.column.EQ(UUID(owner.id)))
}

// detach deletes the upload rows that match where, returning their ids.
func detach(ctx context.Context, tx pgx.Tx, where BoolExpression) ([]uuid.UUID, error) {
	up := table.Uploads
	removed, err := db.Values[uuid.UUID](ctx, tx, up.DELETE().WHERE(where).RETURNING(up.ID))
	if err != nil {
		return nil, fmt.Errorf("message: detach uploads: %w", err)
	}
	return removed, nil
}
