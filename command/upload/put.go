package upload

import (
	"context"
	"errors"
	"fmt"
	"io"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/adapters/blob"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// Put is the PUT to a URL of POST /sas: the bytes of the upload. Whoever
// holds the URL may put them, as with a SAS URL; no session is needed.
type Put struct {
	ID uuid.UUID
	// Expires and Signature are the URL's exp and sig.
	Expires, Signature string
	Body               io.Reader
}

// Upload is an upload's result (spec 001 §3 "Upload result"). URL is where
// it is read for now (a post keeps the id and signs its own URLs);
// MediaType is the type it is served with, read from its bytes.
type Upload struct {
	ID        uuid.UUID `json:"id"`
	Type      string    `json:"type"`
	Name      string    `json:"name"`
	URL       string    `json:"url"`
	MediaType string    `json:"mediaType"`
	Size      int64     `json:"size"`
}

// Put verifies the URL, streams the body into the blob store while
// counting it against the declared size, reads the type from the first
// bytes, and completes the upload. A refused body leaves no blob and the
// upload pending, so the member may try again with the same URL.
func (s *Service) Put(ctx context.Context, in Put) (Upload, error) {
	if err := s.store.Verify(in.ID, "PUT", in.Expires, in.Signature, s.now()); err != nil {
		return Upload{}, err
	}
	var kind, name, state string
	var declared int64
	u := table.Uploads
	err := db.QueryRow(ctx, s.db, SELECT(u.Kind, u.Name, u.DeclaredSize, u.State).FROM(u).WHERE(u.ID.EQ(UUID(in.ID)))).
		Scan(&kind, &name, &declared, &state)
	if errors.Is(err, pgx.ErrNoRows) {
		return Upload{}, apperr.ErrNotFound
	}
	if err != nil {
		return Upload{}, fmt.Errorf("upload: put: %w", err)
	}
	// Refused before reading: a completed upload is never replaced.
	if state == "complete" {
		return Upload{}, ErrCompleted
	}
	// The declared size is the limit while reading: Content-Length is the
	// client's word, the bytes counted here are not.
	st, err := s.store.Stage(in.Body, declared)
	if errors.Is(err, blob.ErrTooLarge) {
		return Upload{}, ErrTooLarge.With("maxSize", declared).With("reason", fmt.Sprintf("the body is longer than the %d bytes declared", declared))
	}
	if err != nil {
		return Upload{}, ErrRejected.With("reason", "the body could not be read to its end").Wrap(err)
	}
	keep := false
	defer func() {
		if !keep {
			s.store.Discard(st)
		}
	}()
	switch {
	case st.Size == 0:
		return Upload{}, ErrRejected.With("reason", "no bytes in file")
	case st.Size != declared:
		return Upload{}, ErrRejected.With("reason", fmt.Sprintf("the body has %d bytes, %d were declared", st.Size, declared))
	}
	sniffed := blob.Sniff(st.Head)
	if kind == KindImage && !blob.IsImageType(sniffed) {
		return Upload{}, ErrRejected.With("reason", "the bytes are not an image of a supported type").With("supportedTypes", blob.ImageTypes)
	}
	served := blob.ServedType(sniffed)
	now := s.now()
	readURL, err := s.links.Read(in.ID, name)
	if err != nil {
		return Upload{}, err
	}
	err = db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		// state = 'pending' settles a race of two PUTs: the second waits for
		// the first's row lock, then matches nothing.
		res, err := db.Exec(ctx, tx, u.UPDATE().
			SET(u.State.SET(String("complete")), u.SniffedMediaType.SET(String(sniffed)), u.MediaType.SET(String(served)),
				u.Size.SET(Int(st.Size)), u.CompletedOn.SET(TimestampzT(now.UTC()))).
			WHERE(u.ID.EQ(UUID(in.ID)).AND(u.State.EQ(String("pending")))))
		if err != nil {
			return fmt.Errorf("upload: complete: %w", err)
		}
		if res.RowsAffected() != 1 {
			return ErrCompleted
		}
		return s.store.Commit(st, in.ID)
	})
	if err != nil {
		if !errors.Is(err, ErrCompleted) {
			// The blob may be in place while the row stayed pending (the
			// commit failed): take it back, so the pair stays consistent.
			_ = s.store.Remove(in.ID)
		}
		return Upload{}, err
	}
	keep = true
	return Upload{ID: in.ID, Type: kind, Name: name, URL: readURL, MediaType: served, Size: st.Size}, nil
}
