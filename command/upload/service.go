// Package upload is the write side of uploads (spec 001 §5 "Uploads", §7
// POST /sas): a member asks for a signed URL, then puts the bytes there
// directly, as a browser does with a cloud store's SAS URL; the server reads
// the bytes' type from the bytes and keeps them in the blob store
// (internal/adapters/blob). Posts refer to a completed upload by its id.
package upload

import (
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/adapters/blob"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/db"
)

// Size limits. An image is at most 3,000,000 bytes (spec 000 §5 and §9, the
// number the composer's "Max Upload Size: 3MB" of spec 001 §5 rounds); a
// file 50 MiB (spec 001 §5: "50MB", which no section gives in bytes).
const (
	MaxImageSize = 3_000_000
	MaxFileSize  = 50 << 20
	// MaxName is the longest file name, in characters.
	MaxName = 255
)

// The kinds of upload: an image is shown in the post, a file is attached.
const (
	KindImage = "image"
	KindFile  = "file"
)

// MaxSize is the limit of a kind.
func MaxSize(kind string) int64 {
	if kind == KindImage {
		return MaxImageSize
	}
	return MaxFileSize
}

// Errors of uploads (spec 001 §8 "Upload rejected").
var (
	// ErrRejected is an upload refused for what it is: a bad name or kind, no
	// bytes ("no bytes in file"), a body of another size than declared, or an
	// image whose bytes are no supported image. details say which.
	ErrRejected = apperr.New(apperr.BadInput, "uploadRejected", "the upload was rejected")
	// ErrTooLarge is a declared size or a body over the kind's limit (or
	// over the declared size); details.maxSize is the limit in bytes.
	ErrTooLarge = apperr.New(apperr.TooLarge, "uploadTooLarge", "the file is larger than allowed")
	// ErrCompleted is a second upload to a URL whose upload is complete.
	ErrCompleted = apperr.New(apperr.Conflict, "uploadCompleted", "this upload is already complete")
	// ErrQuotaExceeded is an upload that would take the member's uploads
	// not yet on a post (pending, or put and not attached) over the quota;
	// details.quota, details.used and details.size are in bytes.
	ErrQuotaExceeded = apperr.New(apperr.TooLarge, "uploadQuotaExceeded",
		"your uploads not yet posted take all the room allowed; post or wait for them to be cleared")
	// ErrNoForum is an account that is a member of no forum and no
	// community and manages none: it has nowhere to put an upload (a post,
	// a private message, a community page, an avatar), so it may not store one.
	ErrNoForum = apperr.New(apperr.Forbidden, "forbidden", "only members of a community or a forum and community managers may upload files")
)

// Config sets the lifetime of upload URLs and what a member may keep.
type Config struct {
	// UploadURLTTL is how long the PUT URL of POST /sas is valid.
	UploadURLTTL time.Duration
	// Quota is the most bytes of a member's uploads not on a post: the
	// declared sizes of the pending ones and the sizes of those put but
	// not attached.
	Quota int64
	// UnattachedTTL is how long an upload may wait to be attached to a
	// post before the sweep deletes it.
	UnattachedTTL time.Duration
}

// Service runs the upload commands.
type Service struct {
	db    *pgxpool.Pool
	links *blob.Links
	store *blob.Store
	cfg   Config
	now   func() time.Time
}

// New builds the service; links place and sign its URLs.
func New(d *db.DB, links *blob.Links, cfg Config) (*Service, error) {
	if d == nil || d.Pool == nil || links == nil {
		return nil, errors.New("upload.New: nil dependency")
	}
	if cfg.UploadURLTTL <= 0 || cfg.UnattachedTTL <= 0 || cfg.Quota <= 0 {
		return nil, errors.New("upload.New: the URL lifetime, the quota and the unattached lifetime must be positive")
	}
	return &Service{db: d.Pool, links: links, store: links.Store(), cfg: cfg, now: time.Now}, nil
}

func newID() uuid.UUID {
	id, err := uuid.NewV7()
	if err != nil {
		panic(err) // only when the system's random source fails
	}
	return id
}
