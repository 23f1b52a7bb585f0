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

	"agora/internal/plumbing/apperr"
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

// Links signs and checks the URLs of one store for browsers: at the public
// base URL, never a request's Host (which a client chooses), and read URLs
// for a short life, signed again each time a page that shows the blob is
// read, so that a deleted blob, or a reader who lost access, is not served
// for long from a URL kept elsewhere.
type Links struct {
	store   *Store
	base    string
	readTTL time.Duration
	now     func() time.Time
}

// NewLinks returns the links of store at base (scheme, host and any path
// before /api/) whose read URLs live for readTTL.
func NewLinks(store *Store, base string, readTTL time.Duration) (*Links, error) {
	if store == nil {
		return nil, errors.New("blob.NewLinks: nil store")
	}
	if u, err := url.Parse(base); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("blob.NewLinks: %q is not an http(s) base URL", base)
	}
	if readTTL <= 0 {
		return nil, errors.New("blob.NewLinks: the read URL lifetime must be positive")
	}
	return &Links{store: store, base: strings.TrimRight(base, "/"), readTTL: readTTL, now: time.Now}, nil
}

// ReadTTL is how long a read URL serves.
func (l *Links) ReadTTL() time.Duration { return l.readTTL }

// Store is the store the links point into.
func (l *Links) Store() *Store { return l.store }

// Put is the URL that accepts the bytes of blob id until expires.
func (l *Links) Put(id uuid.UUID, name string, expires time.Time) (string, error) {
	return l.store.URL(l.base, id, name, "PUT", expires)
}

// Read is a URL that serves blob id for at most the read lifetime. Its
// expiry is rounded to a quarter of the lifetime, so that the URLs of one
// blob signed within that step are the same URL and the browser's cache of
// it holds; it still has at least three quarters of the lifetime to run.
func (l *Links) Read(id uuid.UUID, name string) (string, error) {
	step := max(l.readTTL/4, time.Second)
	expires := l.now().Truncate(step).Add(l.readTTL)
	return l.store.URL(l.base, id, name, "GET", expires)
}

// VerifyRead checks a read URL's exp and sig. A URL signed to live longer
// than the read lifetime (one kept from before the lifetime was shortened)
// is expired: only URLs the feed signs now are served.
func (l *Links) VerifyRead(id uuid.UUID, exp, sig string) error {
	now := l.now()
	if err := l.store.Verify(id, "GET", exp, sig, now); err != nil {
		return err
	}
	expires, _ := strconv.ParseInt(exp, 10, 64) // parsed by Verify
	if time.Unix(expires, 0).Sub(now) > l.readTTL {
		return ErrSignatureExpired
	}
	return nil
}
