// Package app is the composition root: it assembles the processes of the agora binary from their
// parts: the database (a private cluster or DATABASE_URL), the use cases
// and the HTTP API. cmd/agora only parses arguments and calls it.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"time"

	"github.com/gofiber/fiber/v3"

	cmdaccount "agora/command/account"
	"agora/command/community"
	"agora/httpapi"
	"agora/internal/auth"
	"agora/internal/config"
	"agora/internal/db"
	"agora/internal/linkpreview"
	"agora/internal/mail"
	"agora/internal/pgserver"
	"agora/internal/seed"
	qaccount "agora/query/account"
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

// Seed writes the demo data unless it is there already.
func Seed(ctx context.Context, d *db.DB, cfg config.Config, log *slog.Logger) error {
	created, err := seed.Seed(ctx, d.Pool, auth.NewHasher(cfg.Auth.MaxConcurrentHashes), cfg.DemoPassword)
	if err != nil {
		return err
	}
	if created {
		log.Info("demo data seeded")
	}
	return nil
}

// NewAPI builds the HTTP API over d. In dev mode mail goes to the dev
// mailbox and GET /api/dev/mailbox lists it.
// Options (WithRegistry, WithPipeline, WithRealtime) are optional. Every
// API serves live events at /api/hub; they flow once the server listens,
// when it has a broker (WithPipeline, or KAFKA_BROKERS).
func NewAPI(cfg config.Config, d *db.DB, log *slog.Logger, opts ...APIOption) (*fiber.App, error) {
	var sender mail.Sender
	var mailbox *mail.Mailbox
	switch {
	case cfg.SMTP.Host != "":
		sender = mail.SMTP{Host: cfg.SMTP.Host, Port: cfg.SMTP.Port, Username: cfg.SMTP.Username, Password: cfg.SMTP.Password, From: cfg.SMTP.From}
	default:
		mailbox = &mail.Mailbox{Pool: d.Pool}
		sender = mailbox
		if !cfg.Dev {
			log.Warn("SMTP_HOST is not set: mail is kept in the dev_mail table and not delivered")
			mailbox = nil // the listing endpoint stays a dev-only feature
		}
	}
	hasher := auth.NewHasher(cfg.Auth.MaxConcurrentHashes)
	accounts, err := cmdaccount.New(d, hasher, sender, cfg.Auth, cfg.BaseURL())
	if err != nil {
		return nil, err
	}
	communities, err := community.New(d, accounts)
	if err != nil {
		return nil, err
	}
	reg := apiRegistry(opts)
	hub := newHub(d, log, opts)
	if cfg.LinkPreview.AllowPrivate {
		log.Warn("AGORA_LINK_PREVIEW_ALLOW_PRIVATE is on: link previews may fetch loopback and private addresses; for tests only")
	}
	linkPreviews := linkpreview.New(linkpreview.Options{
		Fetch:               linkpreview.FetcherOptions{AllowPrivate: cfg.LinkPreview.AllowPrivate},
		PerAccountPerMinute: cfg.LinkPreview.PerAccountPerMinute,
	})
	uploads, uploadRead, err := newUploads(cfg, d)
	if err != nil {
		return nil, err
	}
	answerer, err := newAnswerer(cfg, log)
	if err != nil {
		return nil, err
	}
	store, closeStore, err := apiSearch(cfg, opts)
	if err != nil {
		return nil, err
	}
	app, err := httpapi.New(httpapi.Deps{
		Log: log, DB: d, Accounts: accounts, Communities: communities,
		AccountRead: qaccount.New(d), Mailbox: mailbox, Registry: reg, Hub: hub,
		Uploads: uploads, UploadRead: uploadRead,
		LinkPreviews: linkPreviews, Search: store, Answerer: answerer,
		Warehouse: apiWarehouse(opts), InsightsBase: cfg.InsightsBase,
	})
	if err != nil {
		closeStore()
		return nil, err
	}
	app.Hooks().OnPostShutdown(func(error) error { closeStore(); return nil })
	runLiveEvents(app, hub, cfg, d, reg, log, opts)
	return app, nil
}

// Serve runs app on addr until ctx ends, then shuts it down gracefully.
// ready, when not nil, receives the bound address once listening.
func Serve(ctx context.Context, app *fiber.App, addr string, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen %s: %w", addr, err)
	}
	errc := make(chan error, 1)
	go func() {
		errc <- app.Listener(ln, fiber.ListenConfig{DisableStartupMessage: true})
	}()
	if ready != nil {
		ready(ln.Addr())
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		if err := app.ShutdownWithTimeout(10 * time.Second); err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
		return nil
	}
}
