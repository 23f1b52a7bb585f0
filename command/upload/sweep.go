package upload

import (
	"context"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/picture"
)

// Sweep deletes the uploads that no post or private message shows: never attached within the
// unattached lifetime, pending past their URL's life, or detached (their post went with its forum),
// and the pictures no avatar or image shows any more. One
// DELETE … RETURNING picks them, so that API nodes sweeping at once each
// remove the blobs of their own rows only; an upload being attached holds
// its row lock, and its attachment is seen by the DELETE once it commits.
// The rows go first: a blob whose removal fails is no longer served and is
// only disk. It returns how many uploads went.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	u := table.Uploads
	cutoff := s.now().Add(-s.cfg.UnattachedTTL).UTC()
	// A pending upload whose URL expired can never be put; an upload still
	// streaming when its URL expired has the hour after to end.
	stale := s.now().Add(-s.cfg.UploadURLTTL - time.Hour).UTC()
	unattached := u.Picture.IS_FALSE().AND(u.AttachedOn.IS_NOT_NULL().
		OR(u.CreatedOn.LT(TimestampzT(cutoff))).
		OR(u.State.EQ(String("pending")).AND(u.CreatedOn.LT(TimestampzT(stale)))))
	// A picture goes once no avatar or image shows it (replaced, or its
	// place deleted); it is marked in the transaction that shows it.
	unshown := u.Picture.IS_TRUE().AND(NOT(picture.Shown(u.ID)))
	ids, err := db.Values[uuid.UUID](ctx, s.db, u.DELETE().
		WHERE(u.ThreadID.IS_NULL().AND(u.PrivateMessageID.IS_NULL()).AND(unattached.OR(unshown))).
		RETURNING(u.ID))
	if err != nil {
		return 0, fmt.Errorf("upload: sweep: %w", err)
	}
	return len(ids), s.store.RemoveAll(ids)
}
