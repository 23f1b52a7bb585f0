package httpapi

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	qaccount "agora/query/account"
)

type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newMetrics(reg *prometheus.Registry) *httpMetrics {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "agora_http_requests_total", Help: "HTTP requests by route and status.",
		}, []string{"method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "agora_http_request_duration_seconds", Help: "HTTP request latency by route.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"method", "route"}),
	}
	reg.MustRegister(m.requests, m.duration)
	return m
}

func (s *server) metricsHandler() fiber.Handler {
	h := fasthttpadaptor.NewFastHTTPHandler(promhttp.HandlerFor(s.Registry, promhttp.HandlerOpts{}))
	return func(c fiber.Ctx) error {
		h(c.RequestCtx())
		return nil
	}
}

type ctxKey int

const (
	keyRequestID ctxKey = iota
	keyPrincipal
)

var safeRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

func requestID(c fiber.Ctx) string {
	id, _ := c.Locals(keyRequestID).(string)
	return id
}

// observe gives each request an id, then logs and measures it.
func (s *server) observe(c fiber.Ctx) error {
	id := c.Get("X-Request-Id")
	if !safeRequestID.MatchString(id) {
		id = uuid.NewString()
	}
	c.Locals(keyRequestID, id)
	c.Set("X-Request-Id", id)
	start := time.Now()
	err := c.Next()
	if err != nil {
		if herr := s.handleError(c, err); herr != nil {
			return herr
		}
	}
	status := c.Response().StatusCode()
	route := "unmatched"
	if r := c.Route(); r != nil && r.Path != "" && r.Path != "/" && !strings.HasSuffix(r.Path, "*") {
		route = r.Path
	}
	elapsed := time.Since(start)
	s.metrics.requests.WithLabelValues(c.Method(), route, strconv.Itoa(status)).Inc()
	s.metrics.duration.WithLabelValues(c.Method(), route).Observe(elapsed.Seconds())
	// Typed attributes, which the logger takes without boxing each value:
	// this runs once per request.
	s.Log.LogAttrs(context.Background(), slog.LevelInfo, "request", slog.String("requestId", id), slog.String("method", c.Method()),
		slog.String("path", c.Path()), slog.String("route", route), slog.Int("status", status),
		slog.Float64("durationMs", float64(elapsed.Microseconds())/1000))
	return nil
}

// recoverPanic turns a panic into a 500 so no input can crash the process.
func (s *server) recoverPanic(c fiber.Ctx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return c.Next()
}

// authenticate resolves a bearer token, when one is sent, into the request's
// principal. A bad token fails the request even on open routes, so that the
// client learns at once that its session is over.
func (s *server) authenticate(c fiber.Ctx) error {
	h := c.Get(fiber.HeaderAuthorization)
	// LiveKit's webhook carries its own signature in the header (a JWT
	// over the body, without a scheme), which is no session.
	if h == "" || c.Path() == ssoRedeemPath || c.Path() == livekitWebhookPath {
		return c.Next()
	}
	// The scheme name is case-insensitive (RFC 9110 §11.1).
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" || len(token) > 256 {
		return apperr.ErrTokenInvalid
	}
	p, err := s.Queries.Accounts.Authenticate(c.Context(), strings.TrimSpace(token))
	if err != nil {
		return err
	}
	c.Locals(keyPrincipal, p)
	return c.Next()
}

func principal(c fiber.Ctx) (qaccount.Principal, bool) {
	p, ok := c.Locals(keyPrincipal).(qaccount.Principal)
	return p, ok
}

// only admits callers whose role is in group (spec 000 §6).
func only(group auth.Group) fiber.Handler {
	return func(c fiber.Ctx) error {
		p, ok := principal(c)
		role := auth.RoleGuest
		if ok {
			role = p.Role
		}
		if group.Allows(role) {
			return c.Next()
		}
		if !ok {
			return apperr.ErrAuthRequired
		}
		return apperr.ErrForbidden
	}
}

// mustPrincipal is for handlers behind only(GroupAuthenticated).
func mustPrincipal(c fiber.Ctx) qaccount.Principal {
	p, _ := principal(c)
	return p
}

// caller is the signed-in caller as the commands and queries take it.
func caller(c fiber.Ctx) auth.Caller {
	p := mustPrincipal(c)
	return auth.Caller{UserID: p.UserID, Role: p.Role}
}

func pathUUID(c fiber.Ctx, name string) (uuid.UUID, error) {
	id, err := uuid.Parse(c.Params(name))
	if err != nil {
		return uuid.Nil, apperr.Invalid(map[string]string{name: "must be a UUID"})
	}
	return id, nil
}
