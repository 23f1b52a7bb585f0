package httpapi

import (
	"crypto/sha256"
	"encoding/base64"
	"html"

	"github.com/gofiber/fiber/v3"

	cmddelivery "agora/command/delivery"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
)

// pushRoutes serve web push (RFC 8030/8292): the server's VAPID key and the
// caller's browsers; and the e-mails' unsubscribe links, which need no
// session (the link's token names the member and the setting).
func (s *server) pushRoutes(api fiber.Router) {
	h := &pushHandlers{cmd: s.Commands.Delivery}
	authed := only(auth.GroupAuthenticated)
	api.Get("/push/key", h.key)
	api.Post("/push/subscriptions", authed, h.subscribe)
	api.Delete("/push/subscriptions", authed, h.unsubscribe)
	// An e-mail's link: GET asks to confirm and changes nothing (mail
	// scanners follow links); POST, from the page's button or a mail
	// client's one-click unsubscribe (RFC 8058, to the List-Unsubscribe
	// link), turns the setting off.
	api.Get("/notifications/unsubscribe", h.confirmUnsubscribe)
	api.Post("/notifications/unsubscribe", h.unsubscribeLink)
}

type pushHandlers struct {
	cmd *cmddelivery.Service
}

func (h *pushHandlers) key(c fiber.Ctx) error {
	key, err := h.cmd.PushKey()
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"publicKey": key})
}

func (h *pushHandlers) subscribe(c fiber.Ctx) error {
	var in struct {
		Endpoint string `json:"endpoint"`
		Keys     struct {
			P256dh string `json:"p256dh"`
			Auth   string `json:"auth"`
		} `json:"keys"`
		// PushSubscription.toJSON() also carries expirationTime.
		ExpirationTime *float64 `json:"expirationTime"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	err := h.cmd.Subscribe(c.Context(), cmddelivery.Subscribe{Actor: caller(c), Endpoint: in.Endpoint, P256dh: in.Keys.P256dh, Auth: in.Keys.Auth})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).Send(nil)
}

func (h *pushHandlers) unsubscribe(c fiber.Ctx) error {
	var in struct {
		Endpoint string `json:"endpoint"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	if err := h.cmd.Unsubscribe(c.Context(), caller(c), in.Endpoint); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// settingNames are what the unsubscribe page says was turned off.
var settingNames = map[string]string{
	"notifications.email.mentions":     "e-mails when someone mentions you",
	"notifications.email.privateChats": "e-mails about private messages",
	"notifications.digest.frequency":   "the digest of comments, replies and mentions",
	"notifications.insights.frequency": "the insights digest",
}

// unsubscribeStyle is the unsubscribe pages' only style, allowed by its
// hash in unsubscribePolicy.
const unsubscribeStyle = "body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}"

// unsubscribePolicy is the Content-Security-Policy of the unsubscribe
// pages: apiPolicy's, but for their one style and their form, which posts
// to this same origin.
var unsubscribePolicy = func() string {
	sum := sha256.Sum256([]byte(unsubscribeStyle))
	return "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; " +
		"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}()

// unsubscribePage answers a small page, not JSON: the unsubscribe link is
// opened from an e-mail, outside the app. body is HTML.
func unsubscribePage(c fiber.Ctx, status int, title, body string) error {
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	c.Set(fiber.HeaderContentSecurityPolicy, unsubscribePolicy)
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(status).SendString(`<!doctype html><html lang="en"><head><meta charset="utf-8">` +
		`<meta name="viewport" content="width=device-width, initial-scale=1"><title>` + html.EscapeString(title) +
		` · Agora</title><style>` + unsubscribeStyle + `</style></head><body>` +
		`<h1>` + html.EscapeString(title) + `</h1>` + body +
		`<p><a href="/profile">Notification settings</a></p></body></html>`)
}

// unsubscribeError answers a token that is not valid (400 for none, 404
// for one that is not ours) with a page; other errors go on to the error
// handler.
func unsubscribeError(c fiber.Ctx, err error) error {
	if e, ok := apperr.As(err); ok && e.Kind != apperr.Internal {
		status := fiber.StatusNotFound
		if e.Kind == apperr.BadInput {
			status = fiber.StatusBadRequest
		}
		return unsubscribePage(c, status, "Link not valid",
			`<p>This unsubscribe link is not valid. You can change what Agora sends you in your notification settings.</p>`)
	}
	return err
}

// confirmUnsubscribe answers the link's page: the setting it would turn
// off and a button posting the token to this same path.
func (h *pushHandlers) confirmUnsubscribe(c fiber.Ctx) error {
	token := c.Query("token")
	setting, err := h.cmd.UnsubscribeSetting(c.Context(), token)
	if err != nil {
		return unsubscribeError(c, err)
	}
	return unsubscribePage(c, fiber.StatusOK, "Unsubscribe",
		`<p>Stop receiving `+html.EscapeString(settingNames[setting])+`?</p>`+
			`<form method="post" action="`+html.EscapeString(c.Path())+`">`+
			`<input type="hidden" name="token" value="`+html.EscapeString(token)+`">`+
			`<button type="submit">Unsubscribe</button></form>`)
}

// unsubscribeLink turns the setting off: the token comes in the query (the
// List-Unsubscribe link a mail client posts to) or in the form's body.
func (h *pushHandlers) unsubscribeLink(c fiber.Ctx) error {
	setting, err := h.cmd.UnsubscribeLink(c.Context(), c.FormValue("token"))
	if err != nil {
		return unsubscribeError(c, err)
	}
	return unsubscribePage(c, fiber.StatusOK, "Unsubscribed",
		`<p>You will no longer receive `+html.EscapeString(settingNames[setting])+`. You can turn it on again in your notification settings.</p>`)
}
