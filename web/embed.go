// Package web holds the React app's production build (web/dist), embedded
// into the agora binary. `make build` runs the Vite build before `go build`,
// so bin/agora serves the app it was built with.
//
// web/dist/.keep is committed so that the embed pattern always matches, and
// `go build ./...` and `go vet ./...` work on a fresh clone before the web
// app was ever built; the server then answers a page saying so.
package web

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist is the built app: index.html at its root and the hashed files under
// assets/. ok is false when the app was not built (only dist/.keep).
func Dist() (files fs.FS, ok bool) {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		return nil, false
	}
	if _, err := fs.Stat(sub, "index.html"); err != nil {
		return sub, false
	}
	return sub, true
}

// BuildID names the build of the app in files: a digest of its index.html,
// which names the entry script and styles by their content hashes (and
// they, the chunks they load), so two builds share an id only when they
// serve the same app. It is "" when there is no index.html.
func BuildID(files fs.FS) string {
	if files == nil {
		return ""
	}
	b, err := fs.ReadFile(files, "index.html")
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}
