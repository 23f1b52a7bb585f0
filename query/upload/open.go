// Package upload is the read side of uploads: a completed upload's blob,
// for whoever holds its signed read URL (an <img> cannot send a bearer
// token, so the URL is the capability, as a cloud store's SAS URL is).
package upload

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/adapters/blob"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// Queries reads uploads.
type Queries struct {
	db    *pgxpool.Pool
	links *blob.Links
	store *blob.Store
}

// New builds the queries.
func New(d *db.DB, links *blob.Links) (*Queries, error) {
	if d == nil || d.Pool == nil || links == nil {
		return nil, errors.New("upload.New: nil dependency")
	}
	return &Queries{db: d.Pool, links: links, store: links.Store()}, nil
}

// Open is GET on a blob URL.
type Open struct {
	ID uuid.UUID
	// Expires and Signature are the URL's exp and sig.
	Expires, Signature string
}

// Blob is an open blob and what it is served as. The caller closes File.
type Blob struct {
	ID   uuid.UUID
	Name string
	// MediaType is the Content-Type to serve: read from the bytes, and
	// never a type a browser would run script in.
	MediaType   string
	Size        int64
	CompletedOn time.Time
	File        *os.File
}

// Open verifies the URL and opens the completed upload's blob. An upload
// that is not complete, or whose post is gone, is not found.
func (q *Queries) Open(ctx context.Context, in Open) (*Blob, error) {
	if err := q.links.VerifyRead(in.ID, in.Expires, in.Signature); err != nil {
		return nil, err
	}
	b := &Blob{ID: in.ID}
	var mediaType *string
	var size *int64
	var completed *time.Time
	u := table.Uploads
	err := db.QueryRow(ctx, q.db, SELECT(u.Name, u.MediaType, u.Size, u.CompletedOn).FROM(u).
		WHERE(u.ID.EQ(UUID(in.ID)).AND(u.State.EQ(String("complete"))).
			AND(u.ThreadID.IS_NOT_NULL().OR(u.PrivateMessageID.IS_NOT_NULL()).OR(u.AttachedOn.IS_NULL())))).
		Scan(&b.Name, &mediaType, &size, &completed)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("upload: open: %w", err)
	}
	if mediaType != nil {
		b.MediaType = *mediaType
	}
	if size != nil {
		b.Size = *size
	}
	if completed != nil {
		b.CompletedOn = *completed
	}
	f, err := q.store.Open(in.ID)
	if errors.Is(err, os.ErrNotExist) {
		return nil, apperr.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("upload: open: %w", err)
	}
	b.File = f
	return b, nil
}

// Picture is GET /pictures/{id}: a fresh read URL of the picture's blob
// (an avatar, a community's or an organization's image), which the
// request is redirected to, and for how long the answer may be reused (a
// tenth of the URL's life, at most ten minutes). Only an upload kept as a
// picture is one.
func (q *Queries) Picture(ctx context.Context, id uuid.UUID) (string, time.Duration, error) {
	u := table.Uploads
	var name string
	err := db.QueryRow(ctx, q.db, SELECT(u.Name).FROM(u).
		WHERE(u.ID.EQ(UUID(id)).AND(u.Picture.IS_TRUE()).AND(u.State.EQ(String("complete"))))).Scan(&name)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", 0, apperr.ErrNotFound
	}
	if err != nil {
		return "", 0, fmt.Errorf("upload: picture: %w", err)
	}
	to, err := q.links.Read(id, name)
	return to, min(q.links.ReadTTL()/10, 10*time.Minute), err
}
