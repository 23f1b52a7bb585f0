package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/gofiber/fiber/v3"

	cmdaccount "agora/command/account"
	cmdaisearch "agora/command/aisearch"
	cmdchat "agora/command/chat"
	cmdcommunity "agora/command/community"
	cmddelivery "agora/command/delivery"
	cmdfeed "agora/command/feed"
	cmdforum "agora/command/forum"
	cmdmeetup "agora/command/meetup"
	"agora/command/memberimport"
	cmdorganization "agora/command/organization"
	cmdsso "agora/command/sso"
	"agora/httpapi"
	"agora/internal/adapters/blob"
	"agora/internal/adapters/linkpreview"
	"agora/internal/adapters/mail"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/config"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/outbound"
	qaccount "agora/query/account"
	qbilling "agora/query/billing"
	qchat "agora/query/chat"
	qcommunity "agora/query/community"
	qfeed "agora/query/feed"
	qforum "agora/query/forum"
	qinsights "agora/query/insights"
	qmeetup "agora/query/meetup"
	qnotifications "agora/query/notifications"
	qorganization "agora/query/organization"
	qsearch "agora/query/search"
	"agora/search/answer"
)

// NewAPI builds the HTTP API over d: the composition root, where every
// adapter, use case and read of the API is made, once, into the one
// httpapi.Application the routes serve. In dev mode mail goes to the dev
// mailbox and GET /api/dev/mailbox lists it.
// Options (WithRegistry, WithPipeline, WithRealtime…) are optional. Every
// API serves live events at /api/hub; they flow once the server listens,
// when it has a broker (WithPipeline, or KAFKA_BROKERS).
func NewAPI(cfg config.Config, d *db.DB, log *slog.Logger, opts ...APIOption) (*fiber.App, error) {
	o := apiOpts(opts)
	a, closeAll, err := newApplication(cfg, d, log, o)
	if err != nil {
		return nil, err
	}
	srv, err := httpapi.New(a)
	if err != nil {
		closeAll()
		return nil, err
	}
	srv.Hooks().OnPostShutdown(func(error) error { closeAll(); return nil })
	if err := runLiveEvents(srv, a, cfg, d, o); err != nil {
		return nil, err
	}
	runUploadSweep(srv, a.Commands.Uploads, cfg.Blobs.UnattachedTTL, a.Log.With("part", "uploads"))
	runMeetupSweep(srv, a.Commands.Meetings, a.Commands.Minutes, a.Log.With("part", "meetups"))
	return srv, nil
}

// mailSender is SMTP when SMTP_HOST is set, else the dev mailbox (also
// returned, for its listing).
func mailSender(cfg config.Config, d *db.DB) (mail.Sender, *mail.Mailbox) {
	if cfg.SMTP.Host != "" {
		return mail.SMTP{Host: cfg.SMTP.Host, Port: cfg.SMTP.Port, Username: cfg.SMTP.Username, Password: cfg.SMTP.Password, From: cfg.SMTP.From}, nil
	}
	mailbox := &mail.Mailbox{Pool: d.Pool}
	return mailbox, mailbox
}

// newApplication builds the application value of the API, and what
// releases what it opened.
func newApplication(cfg config.Config, d *db.DB, log *slog.Logger, o apiOptions) (*httpapi.Application, func(), error) {
	if o.sfu == nil {
		// The configuration's LiveKit (LIVEKIT_URL, or agora dev's and
		// the test harness's local one), unless WithSFU gave another.
		rooms, err := NewSFUClient(cfg)
		if err != nil {
			return nil, nil, err
		}
		o.sfu = rooms
	}
	sender, mailbox := mailSender(cfg, d)
	if mailbox != nil && !cfg.Dev {
		log.Warn("SMTP_HOST is not set: mail is kept in the dev_mail table and not delivered")
		mailbox = nil // the listing endpoint stays a dev-only feature
	}
	guard := outboundGuard(cfg, log)
	store, closeStore, err := apiSearch(cfg, o)
	if err != nil {
		return nil, nil, err
	}
	a := &httpapi.Application{
		Log: log, DB: d, Registry: o.registry, Mailbox: mailbox, InsightsBase: cfg.InsightsBase,
		TrustedProxies: cfg.TrustedProxyList(),
		PublicURL:      cfg.PublicURL,
		Hub:            newHub(cfg, d, log, o),
		Dev:            cfg.Dev,
		Engines:        o.engines,
		Embedder:       o.embedder,
	}
	if a.Registry == nil {
		a.Registry = NewRegistry()
	}
	// The states of the projections of this process: its realtime one,
	// and in agora dev the pipeline's, whose runner registered them first.
	a.Projections = sharedMetrics(a.Registry).Health
	if o.sfu != nil {
		a.SFUPublicURL = o.sfu.PublicURL()
	}
	c, q := &a.Commands, &a.Queries
	q.LinkPreviews = linkpreview.New(linkpreview.Options{
		Fetch:               linkpreview.FetcherOptions{Guard: guard},
		PerAccountPerMinute: cfg.LinkPreview.PerAccountPerMinute,
	})
	var answerer answer.Answerer
	var links *blob.Links
	// Each constructor runs only once those before it succeeded, and the
	// first error is the one returned: a chain of `if err == nil` blocks
	// once let one constructor's error be overwritten by the next one's.
	err = firstError(
		func() (err error) { answerer, err = newAnswerer(cfg, log); return },
		func() (err error) { links, err = newBlobLinks(cfg); return },
		func() (err error) {
			c.Accounts, err = cmdaccount.New(d, auth.NewHasher(cfg.Auth.MaxConcurrentHashes), sender, cfg.Auth, cfg.MailLimits, cfg.BaseURL())
			return
		},
		func() (err error) { c.Communities, err = cmdcommunity.New(d, c.Accounts); return },
		func() (err error) { c.Forums, err = cmdforum.New(d, c.Accounts); return },
		func() (err error) { c.MemberImports, err = newMemberImports(d); return },
		func() (err error) { c.Organizations, err = cmdorganization.New(d, c.Accounts); return },
		func() (err error) {
			c.SSO, err = cmdsso.New(d, c.Accounts, cfg.BaseURL(), cfg.Auth.SignInPerIPPerMinute, guard)
			return
		},
		func() (err error) { c.Feed, err = cmdfeed.New(d, links.Store()); return },
		func() (err error) { c.Meetings, err = cmdmeetup.New(d, o.sfu, log); return },
		func() (err error) { c.Minutes, err = newMinutes(cfg, d, o.sfu, log); return },
		func() (err error) { c.Chat, err = cmdchat.New(d, links.Store()); return },
		func() (err error) {
			c.Delivery, err = cmddelivery.New(d, cmddelivery.Options{PushPublicKey: cfg.Push.PublicKey, Guard: guard})
			return
		},
		func() error {
			embed, err := NewEmbedder(cfg)
			if err != nil {
				return err
			}
			c.AISearch, err = cmdaisearch.New(d, store, answerer, embed, cfg.AI.SearchesPerAccountPerMinute)
			return err
		},
		func() (err error) { c.Uploads, q.Uploads, err = newUploads(cfg, d, links); return },
		func() (err error) { c.Billing, err = newBilling(cfg, d, log); return },
		func() (err error) { q.Billing, err = qbilling.New(d, cfg.DevCheckout()); return },
		func() (err error) { q.Accounts, err = qaccount.New(d); return },
		func() (err error) { q.Communities, err = qcommunity.New(d, store.Members()); return },
		func() (err error) { q.Organizations, err = qorganization.New(d); return },
		func() (err error) { q.Forums, err = qforum.New(d, store.Members()); return },
		func() (err error) { q.Feed, err = qfeed.New(d, links); return },
		func() (err error) { q.Meetings, err = qmeetup.New(d); return },
		func() (err error) { q.Search, err = qsearch.New(store, d); return },
		func() (err error) { q.Chat, err = qchat.New(d, links); return },
		func() (err error) { q.Notifications, err = qnotifications.New(d); return },
		func() (err error) { q.Insights, err = qinsights.New(d, insightsStore(o.warehouse)); return },
	)
	release := func() {
		if c.Minutes != nil {
			// Recorders leave their rooms before the database closes.
			c.Minutes.Close()
		}
		closeStore()
	}
	if err != nil {
		release()
		return nil, nil, err
	}
	return a, release, nil
}

// newMemberImports builds the member import use case; a variable so that a
// test can make it fail and see its error reach NewAPI's caller.
var newMemberImports = memberimport.New

// firstError runs steps in order until one fails, and returns that
// step's error (nil when all succeed): the construction of the
// application stops at its first failure and no later step can overwrite
// it.
func firstError(steps ...func() error) error {
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// Serve runs app on addr until ctx ends, then shuts it down gracefully.
// ready, when not nil, receives the bound address once listening.
func Serve(ctx context.Context, app *fiber.App, addr string, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen %s: %w", addr, err)
	}
	return ServeListener(ctx, app, ln, ready)
}

// ServeListener is Serve on a listener already bound: a server on a port
// chosen by the system knows its address, its public URL, before the API
// is built.
func ServeListener(ctx context.Context, app *fiber.App, ln net.Listener, ready func(net.Addr)) error {
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

// outboundGuard is the one check of the addresses the server connects to
// for URLs its callers supplied (previews, push endpoints, identity
// providers), in the API and in the projection that pushes.
func outboundGuard(cfg config.Config, log *slog.Logger) *outbound.Guard {
	allow := cfg.OutboundAllowList()
	if len(allow) > 0 && !cfg.Dev {
		log.Warn("AGORA_OUTBOUND_ALLOW is set: previews, push and single sign-on may reach these addresses, although not public", "allow", cfg.OutboundAllow)
	}
	return outbound.New(allow...)
}
