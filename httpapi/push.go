package httpapi

import (
	"html"

	"github.com/gofiber/fiber/v3"

	cmddelivery "agora/command/delivery"
	"agora/internal/apperr"
	"agora/internal/auth"
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
	api.Get("/notifications/unsubscribe", h.unsubscribeLink)
	// RFC 8058's one-click unsubscribe: mail clients post to the
	// List-Unsubscribe link.
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

// unsubscribeLink answers a small page, not JSON: it is opened from an
// e-mail, outside the app.
func (h *pushHandlers) unsubscribeLink(c fiber.Ctx) error {
	setting, err := h.cmd.UnsubscribeLink(c.Context(), c.Query("token"))
	page := func(status int, title, text string) error {
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		return c.Status(status).SendString(`<!doctype html><html lang="en"><head><meta charset="utf-8">` +
			`<meta name="viewport" content="width=device-width, initial-scale=1"><title>` + html.EscapeString(title) +
			` · Agora</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem">` +
			`<h1>` + html.EscapeString(title) + `</h1><p>` + html.EscapeString(text) + `</p>` +
			`<p><a href="/profile">Notification settings</a></p></body></html>`)
	}
	if e, ok := apperr.As(err); ok && e.Kind != apperr.Internal {
		status := fiber.StatusNotFound
		if e.Kind == apperr.BadInput {
			status = fiber.StatusBadRequest
		}
		return page(status, "Link not valid", "This unsubscribe link is not valid. You can change what Agora sends you in your notification settings.")
	}
	if err != nil {
		return err
	}
	return page(fiber.StatusOK, "Unsubscribed", "You will no longer receive "+settingNames[setting]+". You can turn it on again in your notification settings.")
}
