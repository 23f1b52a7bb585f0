package app

import (
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v3"

	cmdupload "agora/command/upload"
	"agora/internal/adapters/blob"
	"agora/internal/plumbing/config"
	"agora/internal/plumbing/db"
	qupload "agora/query/upload"
)

// newBlobLinks opens the embedded blob store in cfg.BlobDir(), which stays
// untouched until the first upload, and its links at the public base URL:
// AGORA_PUBLIC_URL (which agora api requires), else the listen address,
// never the Host a request names.
func newBlobLinks(cfg config.Config) (*blob.Links, error) {
	store, err := blob.New(cfg.BlobDir(), cfg.Blobs.Secret)
	if err != nil {
		return nil, err
	}
	return blob.NewLinks(store, cfg.BaseURL(), cfg.Blobs.ReadURLTTL)
}

// newUploads builds the upload use cases over links.
func newUploads(cfg config.Config, d *db.DB, links *blob.Links) (*cmdupload.Service, *qupload.Queries, error) {
	cmd, err := cmdupload.New(d, links, cmdupload.Config{
		UploadURLTTL: cfg.Blobs.UploadURLTTL, Quota: cfg.Blobs.UploadQuota, UnattachedTTL: cfg.Blobs.UnattachedTTL,
	})
	if err != nil {
		return nil, nil, err
	}
	q, err := qupload.New(d, links)
	if err != nil {
		return nil, nil, err
	}
	return cmd, q, nil
}

// sweepInterval is how often an API node sweeps the uploads no post shows:
// a tenth of their lifetime, within a minute and an hour.
func sweepInterval(unattachedTTL time.Duration) time.Duration {
	return min(max(unattachedTTL/10, time.Minute), time.Hour)
}

// runUploadSweep sweeps, once srv listens and then every sweepInterval,
// the uploads no post shows, until srv shuts down. Every API node sweeps;
// Sweep is safe to run on several at once.
func runUploadSweep(srv *fiber.App, uploads *cmdupload.Service, ttl time.Duration, log *slog.Logger) {
	sweepWhileServing(srv, sweepInterval(ttl), uploads.Sweep, func(n int, err error) {
		if err != nil {
			log.Warn("upload sweep failed", "err", err)
		} else if n > 0 {
			log.Info("swept uploads no post shows", "count", n)
		}
	})
}
