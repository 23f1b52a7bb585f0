package httpapi

import (
	"context"
	"strings"

	"github.com/gofiber/fiber/v3"

	cmdaisearch "agora/command/aisearch"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	qinsights "agora/query/insights"
)

// DefaultInsightsBase is where the insights routes are served unless
// configured otherwise (AGORA_INSIGHTS_BASE).
const DefaultInsightsBase = "/api/insights"

// insightsRoutes serve the Insights panel's reports (spec 002 §7) under
// the insights base: within the /api group when the base is under /api,
// else as a group of its own with the same authentication.
func (s *server) insightsRoutes(app *fiber.App, api fiber.Router) {
	q := s.Queries.Insights
	base := s.InsightsBase
	if base == "" {
		base = DefaultInsightsBase
	}
	var r fiber.Router
	if rest, ok := strings.CutPrefix(base, "/api/"); ok {
		r = api.Group("/" + rest)
	} else {
		r = app.Group(base, s.authenticate, refuseNULQuery)
	}
	h := &insightsHandlers{q: q, gaps: s.Commands.AISearch}
	authed := only(auth.GroupAuthenticated)
	for name, report := range map[string]func(fiber.Ctx) error{
		"interactions":     h.daily(q.Interactions),
		"inline-questions": h.daily(q.InlineQuestions),
		"asked-questions":  h.daily(q.AskedQuestions),
		"ai-searches":      h.daily(q.AISearches),
		"content":          h.content,
		"meetups":          h.meetups,
		"members":          h.members,
	} {
		r.Get("/reports/"+name+"/:seriesId", authed, report)
	}
	r.Get("/summary/:seriesId", authed, h.summary)
	r.Get("/list/asked-questions/:seriesId", authed, h.askedQuestions)
	r.Get("/list/inline-questions/:seriesId", authed, h.inlineQuestions)
	r.Get("/list/ai-searches/:seriesId", authed, h.aiSearches)
	r.Post("/series/:seriesId/mia-members", authed, h.missing)
	r.Get("/series/:seriesId/admin-channel", authed, h.adminChannel)
	r.Get("/list/content-gaps/:seriesId", authed, h.contentGaps)
	r.Delete("/series/:seriesId/content-gaps/:gapId", authed, h.dismissGap)
}

type insightsHandlers struct {
	q *qinsights.Queries
	// gaps dismisses content gaps, which the AI search records.
	gaps *cmdaisearch.Service
}

// insightsRequest reads the forum and the period.
func insightsRequest(c fiber.Ctx) (qinsights.Request, error) {
	id, err := pathUUID(c, "seriesId")
	if err != nil {
		return qinsights.Request{}, err
	}
	return qinsights.Request{Caller: caller(c), SeriesID: id, Period: c.Query("period")}, nil
}

// sendReport sends a report; reports are per caller and change by the second.
func sendReport(c fiber.Ctx, v any, err error) error {
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(v)
}

func (h *insightsHandlers) daily(report func(ctx context.Context, r qinsights.Request) (qinsights.DailyReport, error)) fiber.Handler {
	return func(c fiber.Ctx) error {
		r, err := insightsRequest(c)
		if err != nil {
			return err
		}
		rep, err := report(c.Context(), r)
		return sendReport(c, rep, err)
	}
}

func (h *insightsHandlers) content(c fiber.Ctx) error {
	r, err := insightsRequest(c)
	if err != nil {
		return err
	}
	rep, err := h.q.Content(c.Context(), r)
	return sendReport(c, rep, err)
}

func (h *insightsHandlers) meetups(c fiber.Ctx) error {
	r, err := insightsRequest(c)
	if err != nil {
		return err
	}
	rep, err := h.q.Meetups(c.Context(), r)
	return sendReport(c, rep, err)
}

func (h *insightsHandlers) members(c fiber.Ctx) error {
	r, err := insightsRequest(c)
	if err != nil {
		return err
	}
	rep, err := h.q.Members(c.Context(), r)
	return sendReport(c, rep, err)
}

func (h *insightsHandlers) summary(c fiber.Ctx) error {
	r, err := insightsRequest(c)
	if err != nil {
		return err
	}
	rep, err := h.q.Summary(c.Context(), r)
	return sendReport(c, rep, err)
}

func listRequest(c fiber.Ctx) (qinsights.ListRequest, error) {
	r, err := insightsRequest(c)
	if err != nil {
		return qinsights.ListRequest{}, err
	}
	bad := apperr.Fields{}
	page := pageRequest(c, qinsights.DefaultPageSize, bad)
	return qinsights.ListRequest{Request: r, Page: page}, bad.Err()
}

func (h *insightsHandlers) askedQuestions(c fiber.Ctx) error {
	r, err := listRequest(c)
	if err != nil {
		return err
	}
	l, err := h.q.ListAskedQuestions(c.Context(), r)
	return sendReport(c, l, err)
}

func (h *insightsHandlers) inlineQuestions(c fiber.Ctx) error {
	r, err := listRequest(c)
	if err != nil {
		return err
	}
	l, err := h.q.ListInlineQuestions(c.Context(), r)
	return sendReport(c, l, err)
}

func (h *insightsHandlers) aiSearches(c fiber.Ctx) error {
	r, err := listRequest(c)
	if err != nil {
		return err
	}
	l, err := h.q.ListAISearches(c.Context(), r)
	return sendReport(c, l, err)
}

func (h *insightsHandlers) missing(c fiber.Ctx) error {
	id, err := pathUUID(c, "seriesId")
	if err != nil {
		return err
	}
	var in struct {
		VisitorIDs []string `json:"visitorIds"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	n, err := h.q.Missing(c.Context(), qinsights.MissingMembers{Caller: caller(c), SeriesID: id, VisitorIDs: in.VisitorIDs})
	return sendReport(c, n, err)
}

func (h *insightsHandlers) adminChannel(c fiber.Ctx) error {
	id, err := pathUUID(c, "seriesId")
	if err != nil {
		return err
	}
	ch, err := h.q.AdminChannel(c.Context(), caller(c), id)
	return sendReport(c, ch, err)
}

func (h *insightsHandlers) contentGaps(c fiber.Ctx) error {
	id, err := pathUUID(c, "seriesId")
	if err != nil {
		return err
	}
	bad := apperr.Fields{}
	page := pageRequest(c, qinsights.DefaultPageSize, bad)
	if err := bad.Err(); err != nil {
		return err
	}
	l, err := h.q.ContentGaps(c.Context(), qinsights.GapsRequest{Caller: caller(c), SeriesID: id, Sort: c.Query("sort"), Page: page})
	return sendReport(c, l, err)
}

func (h *insightsHandlers) dismissGap(c fiber.Ctx) error {
	seriesID, err := pathUUID(c, "seriesId")
	if err != nil {
		return err
	}
	gapID, err := pathUUID(c, "gapId")
	if err != nil {
		return err
	}
	if err := h.gaps.DismissGap(c.Context(), caller(c), seriesID, gapID); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
