// Package app is the composition root: it builds every adapter, use case
// and read once (api.go: the one httpapi.Application the routes serve) and
// assembles the processes of the agora binary from them: the database (a
// private cluster or DATABASE_URL), the warehouse, the search store, the
// change pipeline (relay, broker, projections), live delivery and the HTTP
// API. cmd/agora only parses arguments and calls it; nothing imports it
// but cmd/ and its test harness (testenv).
package app

import (
	"context"
	"log/slog"
	"path/filepath"

	"agora/app/demo"
	"agora/app/seed"
	"agora/internal/adapters/blob"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/config"
	"agora/internal/plumbing/db"
	"agora/internal/standins/pgserver"
)

// Database is an open database and, in the embedded runtime, the private
// cluster it lives on.
type Database struct {
	*db.DB
	URL    string
	server *pgserver.Server
}

// Close closes the pool and stops the private cluster, if any.
func (d *Database) Close() error {
	d.DB.Close()
	if d.server != nil {
		return d.server.Stop()
	}
	return nil
}

// OpenDatabase connects to DATABASE_URL, or else starts the private
// cluster under the data folder and connects to its agora database.
func OpenDatabase(ctx context.Context, cfg config.Config, log *slog.Logger) (*Database, error) {
	url := cfg.DatabaseURL
	var srv *pgserver.Server
	if url == "" {
		var err error
		srv, err = pgserver.Start(ctx, filepath.Join(cfg.DataDir, "postgres"), log)
		if err != nil {
			return nil, err
		}
		if err := srv.CreateDatabase(ctx, "agora"); err != nil {
			srv.Stop() //nolint:errcheck
			return nil, err
		}
		url = srv.URL("agora")
	}
	d, err := db.Open(ctx, url, 32)
	if err != nil {
		if srv != nil {
			srv.Stop() //nolint:errcheck
		}
		return nil, err
	}
	return &Database{DB: d, URL: url, server: srv}, nil
}

// Migrate applies pending migrations and logs what it applied.
func Migrate(ctx context.Context, d *db.DB, log *slog.Logger) error {
	applied, err := db.Migrate(ctx, d.Pool)
	if err != nil {
		return err
	}
	if len(applied) > 0 {
		log.Info("migrations applied", "versions", applied)
	}
	return nil
}

// SeedOptions choose what Seed writes besides the demo organization.
type SeedOptions struct {
	// Discussions adds the demo forums' discussions (app/demo), in the
	// organization's transaction: agora dev's, not agora seed's nor the
	// test harness's, whose tests count the posts of the demo forums.
	Discussions bool
}

// Seed writes the demo data unless it is there already.
func Seed(ctx context.Context, d *db.DB, cfg config.Config, log *slog.Logger, opt SeedOptions) error {
	var so seed.Options
	if opt.Discussions {
		w, err := discussions(cfg)
		if err != nil {
			return err
		}
		so.Discussions = w.Write
	}
	created, err := seed.Seed(ctx, d.Pool, auth.NewHasher(cfg.Auth.MaxConcurrentHashes), cfg.DemoPassword, so)
	if err != nil {
		return err
	}
	if created {
		log.Info("demo data seeded", "discussions", opt.Discussions)
	}
	return nil
}

// SeedDiscussions adds the demo discussions to a database Seed wrote
// without them (the benchmark's), once; seed.DiscussionThreadIDs then maps
// their keys to their posts.
func SeedDiscussions(ctx context.Context, d *db.DB, cfg config.Config, log *slog.Logger) error {
	w, err := discussions(cfg)
	if err != nil {
		return err
	}
	created, err := seed.SeedDiscussions(ctx, d.Pool, w.Write)
	if err != nil {
		return err
	}
	if created {
		log.Info("demo discussions seeded")
	}
	return nil
}

// discussions is the writer of the demo discussions, whose charts go to
// the blob store the API serves uploads from.
func discussions(cfg config.Config) (*demo.Writer, error) {
	store, err := blob.New(cfg.BlobDir(), cfg.Blobs.Secret)
	if err != nil {
		return nil, err
	}
	return demo.New(store)
}
