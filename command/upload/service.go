// Package upload is the write side of uploads (spec 001 §5 "Uploads", §7
// POST /sas): a member asks for a signed URL, then puts the bytes there
// directly, as a browser does with a cloud store's SAS URL; the server reads
// the bytes' type from the bytes and keeps them in the blob store
// (internal/blob). Posts refer to a completed upload by its id.
package upload

import (
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/apperr"
	"agora/internal/blob"
	"agora/internal/db"
)

// Size limits (spec 001 §5: "Max Upload Size: 50MB" for files, "3MB" for
// images), in binary megabytes as browsers count a File's size.
const (
	MaxImageSize = 3 << 20
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
)

// Config sets the lifetimes of the signed URLs and where they point.
type Config struct {
	// UploadURLTTL is how long the PUT URL of POST /sas is valid.
	UploadURLTTL time.Duration
	// ReadURLTTL is how long the read URL of an upload is valid.
	ReadURLTTL time.Duration
	// PublicURL is the browser-facing base URL; empty means the base of
	// the request that asks (its scheme and Host).
	PublicURL string
}

// Service runs the upload commands.
type Service struct {
	db    *pgxpool.Pool
	store *blob.Store
	cfg   Config
	now   func() time.Time
}

// New builds the service.
func New(d *db.DB, store *blob.Store, cfg Config) (*Service, error) {
	if d == nil || d.Pool == nil || store == nil {
		return nil, errors.New("upload.New: nil dependency")
	}
	if cfg.UploadURLTTL <= 0 || cfg.ReadURLTTL <= 0 {
		return nil, errors.New("upload.New: URL lifetimes must be positive")
	}
	return &Service{db: d.Pool, store: store, cfg: cfg, now: time.Now}, nil
}

// base is where URLs point: the configured public URL, else the request's.
func (s *Service) base(requestBase string) string {
	if s.cfg.PublicURL != "" {
		return strings.TrimRight(s.cfg.PublicURL, "/")
	}
	return strings.TrimRight(requestBase, "/")
}

func newID() uuid.UUID {
	id, err := uuid.NewV7()
	if err != nil {
		panic(err) // only when the system's random source fails
	}
	return id
}
