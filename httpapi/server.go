// Package httpapi is the Fiber transport: routes under /api/, the one JSON
// error body, request decoding, authentication, health, metrics and the
// OpenAPI document. Handlers decode, call a use case, and encode.
package httpapi

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/gofiber/fiber/v3"
	"github.com/prometheus/client_golang/prometheus"

	cmdaccount "agora/command/account"
	"agora/command/community"
	cmdupload "agora/command/upload"
	"agora/internal/db"
	"agora/internal/linkpreview"
	"agora/internal/mail"
	"agora/projections/realtime"
	qaccount "agora/query/account"
	qupload "agora/query/upload"
	"agora/search"
	"agora/search/answer"
)

// Deps are what the API serves from.
type Deps struct {
	Log         *slog.Logger
	DB          *db.DB
	Accounts    *cmdaccount.Service
	Communities *community.Service
	AccountRead *qaccount.Queries
	// Mailbox is set in `agora dev` only: it enables GET /api/dev/mailbox.
	Mailbox *mail.Mailbox
	// Registry receives the HTTP metrics and is served at /metrics.
	Registry *prometheus.Registry
	// Hub holds this node's live connections (GET /api/hub); nil answers
	// the route with hubUnavailable.
	Hub *realtime.Hub
	// Uploads and UploadRead serve POST /api/sas and the blob store's
	// signed URLs.
	Uploads    *cmdupload.Service
	UploadRead *qupload.Queries
	// LinkPreviews answers GET /api/links/preview.
	LinkPreviews *linkpreview.Service
	// Search is the search read store the search routes read.
	Search search.Store
	// Answerer writes the AI search's answers; nil means the extractive
	// answerer (no model).
	Answerer answer.Answerer
	// Warehouse is the insights warehouse the reports read; nil answers
	// them with an error once the caller's rights are checked.
	Warehouse driver.Conn
	// InsightsBase is where the insights routes are (AGORA_INSIGHTS_BASE);
	// empty means DefaultInsightsBase.
	InsightsBase string
}

// BodyLimit bounds request bodies; files go to the blob store through
// signed URLs, never through the API.
const BodyLimit = 1 << 20

// New builds the Fiber app with every route.
func New(d Deps) (*fiber.App, error) {
	if d.Log == nil || d.DB == nil || d.Accounts == nil || d.Communities == nil || d.AccountRead == nil || d.Registry == nil || d.LinkPreviews == nil || d.Search == nil {
		return nil, errors.New("httpapi.New: nil dependency")
	}
	s := &server{Deps: d, metrics: newMetrics(d.Registry)}
	app := fiber.New(fiber.Config{
		AppName:   "agora",
		BodyLimit: BodyLimit,
		// An AI search's question rides in the URL: 1,000 characters of a
		// non-Latin script are 6 KB, over the 4 KB default.
		ReadBufferSize: 16 << 10,
		ErrorHandler:   s.handleError,
		ReadTimeout:    30 * time.Second,
		WriteTimeout:   60 * time.Second,
		IdleTimeout:    120 * time.Second,
	})
	app.Use(s.observe, s.recoverPanic)
	s.limitBodies(app)

	app.Get("/healthz", s.healthz)
	app.Get("/readyz", s.readyz)
	app.Get("/metrics", s.metricsHandler())

	// Probes and metrics ignore credentials: a stale header on a load
	// balancer's probe must not make the node look down.
	api := app.Group("/api", s.authenticate, refuseNULQuery)
	api.Get("/openapi.json", serveOpenAPI)
	s.accountRoutes(api)
	s.communityRoutes(api)
	s.homeRoutes(api)
	s.feedRoutes(api)
	s.searchRoutes(api)
	s.uploadRoutes(api)
	s.linkRoutes(api)
	s.askerRoutes(api)
	s.forumRoutes(api)
	s.hubRoutes(api)
	s.aiSearchRoutes(api)
	s.insightsRoutes(app, api)
	if d.Mailbox != nil {
		api.Get("/dev/mailbox", s.devMailbox)
	}
	// Anything else under /api is a JSON 404, not the web app's fallback.
	api.Use(func(c fiber.Ctx) error { return fiber.ErrNotFound })
	// The web app and its SPA fallback (static.go), outside /api.
	if err := mountWebApp(app); err != nil {
		return nil, err
	}
	return app, nil
}

type server struct {
	Deps
	metrics *httpMetrics
}

func (s *server) healthz(c fiber.Ctx) error {
	return c.JSON(fiber.Map{"status": "ok"})
}

// readyz answers 200 only when Postgres answers and every migration is applied.
func (s *server) readyz(c fiber.Ctx) error {
	ctx, cancel := context.WithTimeout(c.Context(), 2*time.Second)
	defer cancel()
	if err := s.DB.Pool.Ping(ctx); err != nil {
		return c.Status(fiber.StatusServiceUnavailable).JSON(fiber.Map{"status": "unavailable", "postgres": err.Error()})
	}
	pending, err := db.Pending(ctx, s.DB.Pool)
	if err != nil || len(pending) > 0 {
		return c.Status(fiber.StatusServiceUnavailable).JSON(fiber.Map{"status": "unavailable", "pendingMigrations": pending})
	}
	return c.JSON(fiber.Map{"status": "ready"})
}

func (s *server) devMailbox(c fiber.Ctx) error {
	msgs, err := s.Mailbox.List(c.Context(), c.Query("to"), 100)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"results": msgs, "total": len(msgs)})
}
