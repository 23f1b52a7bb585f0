// Package httpapi is the Fiber transport: routes under /api/, the one JSON
// error body, request decoding, authentication, health, metrics and the
// OpenAPI document. Handlers decode, call a use case, and encode.
package httpapi

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v3"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/jsontime"
	"agora/web"
)

// BodyLimit bounds request bodies; files go to the blob store through
// signed URLs, never through the API.
const BodyLimit = 1 << 20

// New builds the Fiber app with every route over a, which the composition
// root (app) built; it constructs nothing.
func New(a *Application) (*fiber.App, error) {
	if err := a.check(); err != nil {
		return nil, err
	}
	files, _ := web.Dist()
	s := &server{Application: a, metrics: newMetrics(a.Registry), webBuild: web.BuildID(files)}
	app := fiber.New(fiber.Config{
		AppName:   "agora",
		BodyLimit: BodyLimit,
		// An AI search's question rides in the URL: 1,000 characters of a
		// non-Latin script are 6 KB, over the 4 KB default.
		ReadBufferSize: 16 << 10,
		// A feed page is 14–18 KB: written through the 4 KB default it
		// takes two or three write calls, through this one.
		WriteBufferSize: 32 << 10,
		ErrorHandler:    s.handleError,
		ReadTimeout:     30 * time.Second,
		WriteTimeout:    60 * time.Second,
		IdleTimeout:     120 * time.Second,
	})
	app.Use(secure, s.observe, s.recoverPanic)
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
	s.memberImportRoutes(api)
	s.sharingRoutes(api)
	s.organizationRoutes(api)
	s.homeRoutes(api)
	s.chatRoutes(api)
	s.personalizationRoutes(api)
	s.notificationRoutes(api)
	s.feedRoutes(api)
	s.meetingRoutes(api)
	s.minutesRoutes(api)
	s.searchRoutes(api)
	s.uploadRoutes(api)
	s.linkRoutes(api)
	s.askerRoutes(api)
	s.forumRoutes(api)
	s.hubRoutes(api)
	s.presenceRoutes(api)
	s.pushRoutes(api)
	s.aiSearchRoutes(api)
	s.insightsRoutes(app, api)
	s.ssoRoutes(api)
	s.billingRoutes(api)
	if a.Mailbox != nil {
		api.Get("/dev/mailbox", s.devMailbox)
	}
	// Anything else under /api reaches the end of the chain (the web app
	// passes /api by), where Fiber answers 405 with an Allow header when
	// the path has other methods and 404 when it has none; handleError
	// gives both the one error body.
	// The web app and its SPA fallback (static.go), outside /api.
	if err := mountWebApp(app, a.PublicURL, a.SFUPublicURL); err != nil {
		return nil, err
	}
	app.Server().Handler = knownMethods(app.Config().RequestMethods, app.Server().Handler)
	return app, nil
}

type server struct {
	*Application
	metrics *httpMetrics
	// webBuild is the id of the web app this node serves, told on the hub.
	webBuild string
}

func (s *server) healthz(c fiber.Ctx) error {
	return c.JSON(fiber.Map{"status": "ok"})
}

// readyz answers 200 only when Postgres answers and every migration is
// applied. Its details name the change pipeline's engines and the AI
// search's embedder (and why the fallback, when the model could not load)
// and show each
// projection's state and lag, but a
// projection retrying (or stalled on) a target that is down keeps the node
// ready: the node still serves reads and writes, taking it out of the load
// balancer would not bring the target back, and taking every node out
// would turn a warehouse outage into an outage of the whole product.
func (s *server) readyz(c fiber.Ctx) error {
	ctx, cancel := context.WithTimeout(c.Context(), 2*time.Second)
	defer cancel()
	states := []projectionState{}
	if s.Projections != nil {
		for _, p := range s.Projections.States() {
			st := projectionState{Projection: p.Projection, State: p.State, LastError: p.LastError, Lag: p.Lag}
			if !p.Since.IsZero() {
				since := jsontime.Of(p.Since)
				st.Since = &since
			}
			states = append(states, st)
		}
	}
	details := func(m fiber.Map) fiber.Map {
		m["projections"] = states
		if len(s.Engines) > 0 {
			m["engines"] = s.Engines
		}
		if s.Embedder.Kind != "" {
			m["embedder"] = s.Embedder
		}
		return m
	}
	if err := s.DB.Pool.Ping(ctx); err != nil {
		return c.Status(fiber.StatusServiceUnavailable).JSON(details(fiber.Map{"status": "unavailable", "postgres": err.Error()}))
	}
	pending, err := db.Pending(ctx, s.DB.Pool)
	if err != nil || len(pending) > 0 {
		return c.Status(fiber.StatusServiceUnavailable).JSON(details(fiber.Map{"status": "unavailable", "pendingMigrations": pending}))
	}
	return c.JSON(details(fiber.Map{"status": "ready"}))
}

// projectionState is a projection's state in /readyz's details.
type projectionState struct {
	Projection string         `json:"projection"`
	State      string         `json:"state"`
	Since      *jsontime.Time `json:"since,omitempty"`
	LastError  string         `json:"lastError,omitempty"`
	Lag        int64          `json:"lag"`
}

func (s *server) devMailbox(c fiber.Ctx) error {
	msgs, err := s.Mailbox.List(c.Context(), c.Query("to"), 100)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"results": msgs, "total": len(msgs)})
}
