// Package pushtest is a push service for tests: it hands out browser
// subscriptions (a P-256 key pair and an auth secret of its own making),
// and for each message posted to one checks the VAPID authorization
// (RFC 8292: an ES256 JWT for its origin, signed by the expected key) and
// decrypts the aes128gcm body (RFC 8291) with the subscription's private
// key, as a browser would. A test reads what arrived in clear, so it proves
// the encryption, not only that a request was made.
package pushtest

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"
)

// Service is a running test push service.
type Service struct {
	srv       *httptest.Server
	vapidKey  string
	mu        sync.Mutex
	subs      map[string]*sub
	delivered []Delivery
	refused   []string
}

type sub struct {
	key    *ecdh.PrivateKey
	auth   []byte
	status int // the answer to a post; 201 unless told
}

// Delivery is one message received and decrypted.
type Delivery struct {
	Endpoint string
	Payload  []byte
}

// Subscription is what a browser's PushSubscription.toJSON gives.
type Subscription struct {
	Endpoint string `json:"endpoint"`
	Keys     struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
}

// Start runs a push service that accepts messages signed with the VAPID
// public key vapidPublicKey (base64url), until the test ends.
func Start(t testing.TB, vapidPublicKey string) *Service {
	t.Helper()
	s := &Service{vapidKey: vapidPublicKey, subs: map[string]*sub{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// Addr is where the service listens (loopback), for the outbound guard to
// allow exactly.
func (s *Service) Addr() netip.AddrPort {
	return netip.MustParseAddrPort(s.srv.Listener.Addr().String())
}

// Subscribe makes a browser's subscription at this service.
func (s *Service) Subscribe(t testing.TB) Subscription {
	t.Helper()
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	id := make([]byte, 12)
	_, _ = rand.Read(id)
	var out Subscription
	out.Endpoint = s.srv.URL + "/push/" + base64.RawURLEncoding.EncodeToString(id)
	out.Keys.P256dh = base64.RawURLEncoding.EncodeToString(key.PublicKey().Bytes())
	out.Keys.Auth = base64.RawURLEncoding.EncodeToString(auth)
	s.mu.Lock()
	s.subs[out.Endpoint] = &sub{key: key, auth: auth, status: http.StatusCreated}
	s.mu.Unlock()
	return out
}

// Expire makes the service answer 410 Gone to posts to endpoint, as one
// does for a subscription the browser dropped.
func (s *Service) Expire(endpoint string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if x := s.subs[endpoint]; x != nil {
		x.status = http.StatusGone
	}
}

// Delivered are the messages decrypted so far, oldest first.
func (s *Service) Delivered() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Delivery(nil), s.delivered...)
}

// Refused are the reasons of the posts refused so far (a bad signature, a
// body that does not decrypt…). A test expects none.
func (s *Service) Refused() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.refused...)
}

func (s *Service) serve(w http.ResponseWriter, r *http.Request) {
	endpoint := s.srv.URL + r.URL.Path
	s.mu.Lock()
	x := s.subs[endpoint]
	s.mu.Unlock()
	if x == nil {
		http.NotFound(w, r)
		return
	}
	status, err := s.receive(r, x)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.refused = append(s.refused, err.Error())
		http.Error(w, err.Error(), status)
		return
	}
	if x.status != http.StatusCreated {
		w.WriteHeader(x.status)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

// receive checks and decrypts one post; the payload is recorded when the
// subscription is live.
func (s *Service) receive(r *http.Request, x *sub) (int, error) {
	if r.Method != http.MethodPost {
		return http.StatusMethodNotAllowed, errors.New("not a POST")
	}
	if r.Header.Get("TTL") == "" {
		return http.StatusBadRequest, errors.New("no TTL header")
	}
	if err := s.checkVAPID(r.Header.Get("Authorization"), s.srv.URL); err != nil {
		return http.StatusUnauthorized, err
	}
	if ce := r.Header.Get("Content-Encoding"); ce != "aes128gcm" {
		return http.StatusUnsupportedMediaType, fmt.Errorf("content encoding %q", ce)
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 8192))
	if err != nil {
		return http.StatusBadRequest, err
	}
	plain, err := decrypt(body, x.key, x.auth)
	if err != nil {
		return http.StatusBadRequest, err
	}
	if x.status == http.StatusCreated {
		s.mu.Lock()
		s.delivered = append(s.delivered, Delivery{Endpoint: s.srv.URL + r.URL.Path, Payload: plain})
		s.mu.Unlock()
	}
	return 0, nil
}

// checkVAPID checks "vapid t=<JWT>, k=<public key>" (RFC 8292 §3): the key
// is the expected one, the JWT is ES256-signed by it, for this origin, not
// expired (at most 24 hours ahead), with a subject.
func (s *Service) checkVAPID(h, origin string) error {
	rest, ok := strings.CutPrefix(h, "vapid ")
	if !ok {
		return fmt.Errorf("authorization %q is not vapid", h)
	}
	params := map[string]string{}
	for _, p := range strings.Split(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		params[k] = v
	}
	if params["k"] != s.vapidKey {
		return fmt.Errorf("vapid key %q, want %q", params["k"], s.vapidKey)
	}
	pub, err := base64.RawURLEncoding.DecodeString(params["k"])
	if err != nil {
		return err
	}
	x, y := elliptic.Unmarshal(elliptic.P256(), pub) //nolint:staticcheck // the key arrives as an uncompressed point
	if x == nil {
		return errors.New("vapid key is not a P-256 point")
	}
	parts := strings.Split(params["t"], ".")
	if len(parts) != 3 {
		return errors.New("vapid token is not a JWT")
	}
	var header struct{ Alg, Typ string }
	var claims struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
		Sub string `json:"sub"`
	}
	if err := decodePart(parts[0], &header); err != nil || header.Alg != "ES256" {
		return fmt.Errorf("jwt header %+v %v", header, err)
	}
	if err := decodePart(parts[1], &claims); err != nil {
		return err
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return errors.New("jwt signature is not 64 bytes")
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	key := &ecdsa.PublicKey{Curve: elliptic.P256(), X: x, Y: y}
	if !ecdsa.Verify(key, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return errors.New("jwt signature does not verify")
	}
	now := time.Now().Unix()
	switch {
	case claims.Aud != origin:
		return fmt.Errorf("jwt aud %q, want %q", claims.Aud, origin)
	case claims.Exp <= now || claims.Exp > now+24*3600:
		return fmt.Errorf("jwt exp %d", claims.Exp)
	case !strings.HasPrefix(claims.Sub, "mailto:") && !strings.HasPrefix(claims.Sub, "https:"):
		return fmt.Errorf("jwt sub %q", claims.Sub)
	}
	return nil
}

func decodePart(s string, into any) error {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, into)
}

// decrypt reverses RFC 8291 over RFC 8188's aes128gcm: the header (salt,
// record size, the sender's public key as key id), then one record.
func decrypt(body []byte, key *ecdh.PrivateKey, auth []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("body shorter than the aes128gcm header")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if idlen != 65 || len(body) < 21+idlen {
		return nil, fmt.Errorf("key id of %d bytes", idlen)
	}
	senderPub, record := body[21:21+idlen], body[21+idlen:]
	if uint32(len(record)) > rs {
		return nil, errors.New("more than one record")
	}
	peer, err := ecdh.P256().NewPublicKey(senderPub)
	if err != nil {
		return nil, err
	}
	secret, err := key.ECDH(peer)
	if err != nil {
		return nil, err
	}
	info := append(append([]byte("WebPush: info\x00"), key.PublicKey().Bytes()...), senderPub...)
	ikm, err := hkdf.Key(sha256.New, secret, auth, string(info), 32)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, record, nil)
	if err != nil {
		return nil, fmt.Errorf("decrypt: %w", err)
	}
	// The last record ends with the delimiter 2, then zero padding.
	i := len(plain) - 1
	for i >= 0 && plain[i] == 0 {
		i--
	}
	if i < 0 || plain[i] != 2 {
		return nil, errors.New("no last-record delimiter")
	}
	return plain[:i], nil
}
