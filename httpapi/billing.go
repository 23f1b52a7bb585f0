package httpapi

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html"
	"strings"

	"github.com/gofiber/fiber/v3"

	cmdbilling "agora/command/billing"
	"agora/internal/plumbing/auth"
	qbilling "agora/query/billing"
)

// billingRoutes serve paid communities and forums: checkout, the member's
// subscriptions, Stripe's customer portal, Stripe's webhook and, in agora
// dev, the dev checkout page that stands in for Stripe's on stripe-mock.
func (s *server) billingRoutes(api fiber.Router) {
	h := &billingHandlers{cmd: s.Commands.Billing, q: s.Queries.Billing}
	authed := only(auth.GroupAuthenticated)
	api.Post("/checkout-sessions", authed, h.checkout)
	api.Get("/subscriptions", authed, h.subscriptions)
	api.Post("/billing-portal-sessions", authed, h.portal)
	// Stripe signs its events with the endpoint's secret; no session.
	api.Post("/stripe/webhook", h.webhook)
	if s.Dev {
		api.Get("/dev/checkout/:id", h.devCheckoutPage)
		api.Post("/dev/checkout/:id", h.devCheckoutPay)
	}
}

type billingHandlers struct {
	cmd *cmdbilling.Service
	q   *qbilling.Queries
}

func (h *billingHandlers) checkout(c fiber.Ctx) error {
	var in struct {
		ProductID *string `json:"productId"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	out, err := h.cmd.Checkout(c.Context(), cmdbilling.Checkout{Caller: caller(c), ProductID: in.ProductID})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(out)
}

func (h *billingHandlers) subscriptions(c fiber.Ctx) error {
	page, err := h.q.Subscriptions(c.Context(), caller(c))
	if err != nil {
		return err
	}
	return c.JSON(page)
}

func (h *billingHandlers) portal(c fiber.Ctx) error {
	out, err := h.cmd.Portal(c.Context(), caller(c))
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(out)
}

func (h *billingHandlers) webhook(c fiber.Ctx) error {
	ack, err := h.cmd.Webhook(c.Context(), c.Body(), c.Get("Stripe-Signature"))
	if err != nil {
		return err
	}
	return c.JSON(ack)
}

// devCheckoutStyle is the dev checkout page's only style, allowed by its
// hash in devCheckoutPolicy.
const devCheckoutStyle = "body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}" +
	"table{width:100%;border-collapse:collapse}td{padding:.4rem 0}td:last-child{text-align:right}" +
	"tfoot td{font-weight:bold;border-top:1px solid}p.note{color:#555}"

// devCheckoutPolicy allows the page's style and its form, which posts to
// this same origin and is redirected to the app's success URL.
var devCheckoutPolicy = func() string {
	sum := sha256.Sum256([]byte(devCheckoutStyle))
	return "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; " +
		"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}()

// devCheckoutPage stands in for Stripe's hosted checkout page: the items,
// their total, a Pay button and a Cancel link.
func (h *billingHandlers) devCheckoutPage(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	co, err := h.q.DevCheckout(c.Context(), id)
	if err != nil {
		return err
	}
	var rows strings.Builder
	total := 0
	for _, it := range co.Items {
		total += int(it.AmountCents)
		fmt.Fprintf(&rows, "<tr><td>%s <small>(%s)</small></td><td>%s a month</td></tr>",
			html.EscapeString(it.Name), html.EscapeString(it.Kind), dollars(int(it.AmountCents)))
	}
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	c.Set(fiber.HeaderContentSecurityPolicy, devCheckoutPolicy)
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.SendString(`<!doctype html><html lang="en"><head><meta charset="utf-8">` +
		`<meta name="viewport" content="width=device-width, initial-scale=1"><title>Checkout · Agora (dev)</title>` +
		`<style>` + devCheckoutStyle + `</style></head><body><main><h1>Checkout</h1>` +
		`<p class="note">agora dev on stripe-mock: this page stands in for Stripe's. Paying sends this server the webhook events Stripe would send.</p>` +
		`<table><tbody>` + rows.String() + `</tbody><tfoot><tr><td>Total</td><td>` + dollars(total) + ` a month</td></tr></tfoot></table>` +
		`<form method="post" action="` + html.EscapeString(c.Path()) + `"><button type="submit">Pay</button></form>` +
		`<p><a href="` + html.EscapeString(co.CancelURL) + `">Cancel</a></p></main></body></html>`)
}

// devCheckoutPay is the dev checkout page's Pay: the signed events go to
// this server's webhook, and the browser to the success URL.
func (h *billingHandlers) devCheckoutPay(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	success, err := h.cmd.PayDevCheckout(c.Context(), id)
	if err != nil {
		return err
	}
	return c.Redirect().Status(fiber.StatusSeeOther).To(success)
}

// dollars shows cents as US dollars: 3995 is $39.95.
func dollars(cents int) string { return fmt.Sprintf("$%d.%02d", cents/100, cents%100) }
