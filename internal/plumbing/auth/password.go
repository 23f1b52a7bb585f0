// Package auth holds credentials: password hashing, bearer and one-time
// tokens, and the role groups that decide route access.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters recommended by OWASP's Password Storage Cheat Sheet:
// m=19 MiB, t=2, p=1.
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonKeyLen    = 32
	argonSaltLen   = 16
)

// Password length limits of spec 002 §5.
const (
	PasswordMin = 8
	PasswordMax = 64
)

// CheckPassword returns a user-facing reason when pw breaks the password
// rules (8 to 64 characters, no spaces), or "".
func CheckPassword(pw string) string {
	n := len([]rune(pw))
	if n < PasswordMin || n > PasswordMax {
		return "must be 8 to 64 characters"
	}
	if strings.IndexFunc(pw, unicode.IsSpace) >= 0 {
		return "must not contain spaces"
	}
	return ""
}

// Hasher hashes and verifies passwords with argon2id, bounding how many run
// at once: each holds 19 MiB, and an unbounded burst of sign-ins would turn
// into a memory exhaustion.
type Hasher struct {
	slots chan struct{}
}

// NewHasher allows up to concurrency hashes at once.
func NewHasher(concurrency int) *Hasher {
	if concurrency < 1 {
		concurrency = 1
	}
	return &Hasher{slots: make(chan struct{}, concurrency)}
}

func (h *Hasher) acquire(ctx context.Context) error {
	select {
	case h.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *Hasher) release() { <-h.slots }

// Hash returns the PHC string of pw.
func (h *Hasher) Hash(ctx context.Context, pw string) (string, error) {
	if err := h.acquire(ctx); err != nil {
		return "", err
	}
	defer h.release()
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(pw), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemoryKiB, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

var b64 = base64.RawStdEncoding

// errBadHash means a stored hash is not an argon2id PHC string.
var errBadHash = errors.New("auth: stored password hash is malformed")

// Verify reports whether pw matches the PHC string encoded, using the
// parameters stored with the hash so they can be raised later.
func (h *Hasher) Verify(ctx context.Context, pw, encoded string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errBadHash
	}
	var version int
	var mem, iters uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errBadHash
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &iters, &threads); err != nil {
		return false, errBadHash
	}
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, errBadHash
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil {
		return false, errBadHash
	}
	if err := h.acquire(ctx); err != nil {
		return false, err
	}
	defer h.release()
	got := argon2.IDKey([]byte(pw), salt, iters, mem, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
