package blob

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"agora/internal/apperr"
)

// PathPrefix is where the API serves blobs: PathPrefix + id + "/" + name.
// The name is only for the browser (a saved file's name); the id and the
// signature are what count.
const PathPrefix = "/api/blobs/"

// Signature failures, the same for putting and for getting a blob.
var (
	// ErrSignatureInvalid is a URL whose signature is missing, malformed or
	// not this store's for that blob and method (a tampered URL).
	ErrSignatureInvalid = apperr.New(apperr.Forbidden, "blobSignatureInvalid", "the link is not valid")
	// ErrSignatureExpired is a correctly signed URL past its expiry.
	ErrSignatureExpired = apperr.New(apperr.Forbidden, "blobSignatureExpired", "the link has expired")
)

// keyFile holds the generated signing key, hex-encoded.
const keyFile = "signing.key"

// signingKey is the configured secret, or the key kept in the folder, made
// on first use. O_EXCL makes two nodes starting together agree on one key.
func (s *Store) signingKey() ([]byte, error) {
	if len(s.secret) > 0 {
		return s.secret, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.key != nil {
		return s.key, nil
	}
	path := filepath.Join(s.dir, keyFile)
	if err := os.MkdirAll(s.dir, 0o750); err != nil {
		return nil, fmt.Errorf("blob: %w", err)
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("blob: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case err == nil:
		_, werr := f.WriteString(hex.EncodeToString(key) + "\n")
		serr := f.Sync()
		if cerr := f.Close(); werr == nil && serr == nil {
			werr = cerr
		} else if werr == nil {
			werr = serr
		}
		if werr != nil {
			_ = os.Remove(path)
			return nil, fmt.Errorf("blob: write %s: %w", path, werr)
		}
	case errors.Is(err, os.ErrExist):
		b, rerr := os.ReadFile(path)
		if rerr != nil {
			return nil, fmt.Errorf("blob: %w", rerr)
		}
		key, err = hex.DecodeString(strings.TrimSpace(string(b)))
		if err != nil || len(key) < 32 {
			return nil, fmt.Errorf("blob: %s is not a hex key of 32 bytes or more", path)
		}
	default:
		return nil, fmt.Errorf("blob: %w", err)
	}
	s.key = key
	return key, nil
}

// mac is HMAC-SHA256 over the blob id, the method and the expiry: a
// signature for GET cannot be used to PUT, and a changed expiry breaks it.
func mac(key []byte, id uuid.UUID, method string, expires int64) []byte {
	h := hmac.New(sha256.New, key)
	fmt.Fprintf(h, "%s\n%s\n%d", id, strings.ToUpper(method), expires)
	return h.Sum(nil)
}

// URL is base (scheme and host, no trailing slash) followed by the blob's
// path and a signature letting anyone who holds the URL use method on it
// until expires.
func (s *Store) URL(base string, id uuid.UUID, name, method string, expires time.Time) (string, error) {
	key, err := s.signingKey()
	if err != nil {
		return "", err
	}
	exp := expires.Unix()
	q := url.Values{}
	q.Set("exp", strconv.FormatInt(exp, 10))
	q.Set("sig", base64.RawURLEncoding.EncodeToString(mac(key, id, method, exp)))
	return strings.TrimRight(base, "/") + PathPrefix + id.String() + "/" + url.PathEscape(name) + "?" + q.Encode(), nil
}

// Verify checks the exp and sig query values of a URL for method on blob
// id at time now. The signature is compared in constant time and checked
// before the expiry, so that a tampered expiry reads as invalid.
func (s *Store) Verify(id uuid.UUID, method, exp, sig string, now time.Time) error {
	key, err := s.signingKey()
	if err != nil {
		return err
	}
	expires, err := strconv.ParseInt(exp, 10, 64)
	if err != nil {
		return ErrSignatureInvalid
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, mac(key, id, method, expires)) {
		return ErrSignatureInvalid
	}
	if now.Unix() > expires {
		return ErrSignatureExpired
	}
	return nil
}

// IDFromURL returns the blob id of a URL whose path is a blob's, whatever
// its host and whatever path the public URL puts before /api/: the feed
// uses it to tell an upload from an image elsewhere.
func IDFromURL(raw string) (uuid.UUID, bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return uuid.Nil, false
	}
	// The escaped path, so that a name cannot bring a slash of its own.
	p := strings.ToLower(u.EscapedPath())
	i := strings.LastIndex(p, PathPrefix)
	if i < 0 {
		return uuid.Nil, false
	}
	idPart, _, _ := strings.Cut(p[i+len(PathPrefix):], "/")
	id, err := uuid.Parse(idPart)
	return id, err == nil
}
