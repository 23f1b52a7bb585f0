package app

import (
	cmdupload "agora/command/upload"
	"agora/internal/blob"
	"agora/internal/config"
	"agora/internal/db"
	qupload "agora/query/upload"
)

// newUploads builds the upload use cases over the embedded blob store in
// cfg.BlobDir(), which stays untouched until the first upload.
func newUploads(cfg config.Config, d *db.DB) (*cmdupload.Service, *qupload.Queries, error) {
	store, err := blob.New(cfg.BlobDir(), cfg.Blobs.Secret)
	if err != nil {
		return nil, nil, err
	}
	cmd, err := cmdupload.New(d, store, cmdupload.Config{
		UploadURLTTL: cfg.Blobs.UploadURLTTL, ReadURLTTL: cfg.Blobs.ReadURLTTL, PublicURL: cfg.PublicURL,
	})
	if err != nil {
		return nil, nil, err
	}
	q, err := qupload.New(d, store)
	if err != nil {
		return nil, nil, err
	}
	return cmd, q, nil
}
