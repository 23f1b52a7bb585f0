package upload

import (
	"context"
	"fmt"
	"mime"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/adapters/blob"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
	"agora/internal/rules/access"
)

// Create is POST /sas: what the member is about to upload.
type Create struct {
	Actor     auth.Caller
	Kind      *string
	Name      *string
	MediaType *string
	Size      *int64
}

// Ticket is the answer to POST /sas: where to put the bytes, and until when.
type Ticket struct {
	ID        uuid.UUID     `json:"id"`
	URL       string        `json:"url"`
	Method    string        `json:"method"`
	ExpiresOn jsontime.Time `json:"expiresOn"`
	// MaxSize is the most bytes the URL accepts: the declared size.
	MaxSize int64 `json:"maxSize"`
}

// Create checks the declared upload, records it as pending and signs a PUT
// URL for it. Nothing is stored until the bytes arrive; the declared type
// is checked here only to refuse early what the bytes will be refused for.
// Only a member of a forum may upload, and only within the quota of bytes
// not yet on a post, so that an account cannot use the store as a disk.
func (s *Service) Create(ctx context.Context, in Create) (Ticket, error) {
	var missing []string
	if in.Kind == nil {
		missing = append(missing, "kind")
	}
	if in.Name == nil {
		missing = append(missing, "name")
	}
	if in.Size == nil {
		missing = append(missing, "size")
	}
	if in.Kind != nil && *in.Kind == KindImage && in.MediaType == nil {
		missing = append(missing, "mediaType")
	}
	if len(missing) > 0 {
		return Ticket{}, apperr.MissingParameters(missing...)
	}
	kind, name, size := *in.Kind, *in.Name, *in.Size
	mediaType := ""
	if in.MediaType != nil {
		mediaType = strings.ToLower(strings.TrimSpace(*in.MediaType))
	}
	fields := apperr.Fields{}
	if kind != KindImage && kind != KindFile {
		fields.Add("kind", "must be image or file")
	}
	if msg := checkName(name); msg != "" {
		fields.Add("name", msg)
	}
	if size <= 0 {
		fields.Add("size", "no bytes in file")
	}
	supported := false
	switch {
	case kind == KindImage:
		supported = blob.IsImageType(mediaType)
		if !supported {
			fields.Add("mediaType", "must be one of "+strings.Join(blob.ImageTypes, ", "))
		}
	case mediaType == "":
		mediaType = "application/octet-stream"
	default:
		if mt, _, err := mime.ParseMediaType(mediaType); err != nil || len(mediaType) > 255 {
			fields.Add("mediaType", "must be a media type such as application/pdf")
		} else {
			mediaType = mt
		}
	}
	if len(fields) > 0 {
		err := ErrRejected.With("fields", map[string]string(fields))
		if kind == KindImage && !supported {
			err = err.With("supportedTypes", blob.ImageTypes)
		}
		return Ticket{}, err
	}
	if max := MaxSize(kind); size > max {
		return Ticket{}, ErrTooLarge.With("maxSize", max)
	}

	id := newID()
	now := s.now()
	expires := now.Add(s.cfg.UploadURLTTL)
	url, err := s.links.Put(id, name, expires)
	if err != nil {
		return Ticket{}, err
	}
	err = db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		ok, err := access.MayUpload(ctx, tx, in.Actor.UserID, in.Actor.Role)
		if err != nil {
			return err
		}
		if !ok {
			return ErrNoForum
		}
		// The member's row lock makes two tickets asked at once count
		// each other.
		us := table.Users
		if _, err := db.Exec(ctx, tx, SELECT(us.ID).FROM(us).WHERE(us.ID.EQ(UUID(in.Actor.UserID))).FOR(UPDATE())); err != nil {
			return fmt.Errorf("upload: lock member: %w", err)
		}
		used, err := s.unposted(ctx, tx, in.Actor.UserID)
		if err != nil {
			return err
		}
		if used+size > s.cfg.Quota {
			return ErrQuotaExceeded.With("quota", s.cfg.Quota).With("used", used).With("size", size)
		}
		u := table.Uploads
		_, err = db.Exec(ctx, tx, u.INSERT(u.ID, u.OwnerID, u.Kind, u.Name, u.DeclaredMediaType, u.DeclaredSize, u.CreatedOn).
			VALUES(UUID(id), UUID(in.Actor.UserID), String(kind), String(name), String(mediaType), Int(size), TimestampzT(now.UTC())))
		if err != nil {
			return fmt.Errorf("upload: create: %w", err)
		}
		return nil
	})
	if err != nil {
		return Ticket{}, err
	}
	return Ticket{ID: id, URL: url, Method: "PUT", ExpiresOn: jsontime.Of(time.Unix(expires.Unix(), 0)), MaxSize: size}, nil
}

// unposted is the bytes of owner's uploads not on a post or a private message: the declared
// size of a pending one whose URL still takes its bytes, the size of one
// put. A pending upload whose URL has expired can never be put, so it holds
// no room (the sweep removes it); a picture (an avatar, a community's
// image) is shown, as a post's upload is, and holds none either.
func (s *Service) unposted(ctx context.Context, tx pgx.Tx, owner uuid.UUID) (int64, error) {
	u := table.Uploads
	var used int64
	live := u.State.EQ(String("complete")).OR(u.CreatedOn.GT(TimestampzT(s.now().Add(-s.cfg.UploadURLTTL).UTC())))
	err := db.QueryRow(ctx, tx, SELECT(COALESCE(SUM(COALESCE(u.Size, u.DeclaredSize)), Int(0))).FROM(u).
		WHERE(u.OwnerID.EQ(UUID(owner)).AND(u.ThreadID.IS_NULL()).AND(u.PrivateMessageID.IS_NULL()).AND(u.Picture.IS_FALSE()).AND(live))).Scan(&used)
	if err != nil {
		return 0, fmt.Errorf("upload: quota: %w", err)
	}
	return used, nil
}

// checkName returns what is wrong with a file name, or "". A name is shown
// and used as the saved file's name, so it is one path element of printable
// characters.
func checkName(name string) string {
	n := utf8.RuneCountInString(name)
	switch {
	case strings.TrimSpace(name) == "":
		return "Invalid or missing file."
	case n > MaxName:
		return fmt.Sprintf("must be at most %d characters", MaxName)
	case !utf8.ValidString(name):
		return "must be UTF-8"
	case strings.ContainsAny(name, `/\`), name == ".", name == "..":
		return "must be a file name, without a folder"
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return "must not contain control characters"
		}
	}
	return ""
}
