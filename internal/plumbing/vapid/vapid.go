// Package vapid holds the server's VAPID key pair (RFC 8292), the identity
// Web Push messages are signed with: a value that config checks when it is
// given and webpush signs with, so neither imports the other.
package vapid

import (
	"bytes"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strings"
)

// Keys are a VAPID key pair, base64url without padding: the public key an
// uncompressed P-256 point (65 bytes), the private key its scalar (32).
type Keys struct {
	Public  string `json:"publicKey"`
	Private string `json:"privateKey"`
}

// GenerateKeys makes a fresh VAPID key pair.
func GenerateKeys() (Keys, error) {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return Keys{}, err
	}
	return Keys{
		Public:  base64.RawURLEncoding.EncodeToString(k.PublicKey().Bytes()),
		Private: base64.RawURLEncoding.EncodeToString(k.Bytes()),
	}, nil
}

// Check reports whether the pair is a P-256 key pair whose public key is
// the private key's.
func (k Keys) Check() error {
	priv, err := decode(k.Private)
	if err != nil {
		return errors.New("the private key is not base64url")
	}
	key, err := ecdh.P256().NewPrivateKey(priv)
	if err != nil {
		return errors.New("the private key is not a P-256 key")
	}
	pub, err := decode(k.Public)
	if err != nil || !bytes.Equal(pub, key.PublicKey().Bytes()) {
		return errors.New("the public key is not the private key's")
	}
	return nil
}

func decode(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}
