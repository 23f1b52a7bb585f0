package httpapi

import (
	"strings"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	cmdsso "agora/command/sso"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
)

// ssoRedeemPath carries the identity provider's access token in its
// Authorization header, not a session of ours: authenticate leaves it alone.
const ssoRedeemPath = "/api/sso/tokens/redeem"

func (s *server) ssoRoutes(api fiber.Router) {
	api.Put("/organizations/:id/identity-client", only(auth.GroupAuthenticated), s.setIdentityClient)
	api.Delete("/organizations/:id/identity-client", only(auth.GroupAuthenticated), s.removeIdentityClient)
	api.Post("/sso/start", s.startSSO)
	api.Post("/sso/callback", s.completeSSO)
	api.Post("/sso/tokens/redeem", s.redeemSSOToken)
}

func (s *server) setIdentityClient(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	var in struct {
		Issuer       *string `json:"issuer"`
		ClientID     *string `json:"clientId"`
		ClientSecret *string `json:"clientSecret"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	if err := s.Commands.SSO.SetIdentityClient(c.Context(), caller(c), cmdsso.SetIdentityClient{
		OrganizationID: id, Issuer: deref(in.Issuer), ClientID: deref(in.ClientID), ClientSecret: deref(in.ClientSecret),
	}); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *server) removeIdentityClient(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	if err := s.Commands.SSO.RemoveIdentityClient(c.Context(), caller(c), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *server) startSSO(c fiber.Ctx) error {
	var in struct {
		Email          *string    `json:"email"`
		OrganizationID *uuid.UUID `json:"organizationId"`
		Redirect       *string    `json:"redirect"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	out, err := s.Commands.SSO.Start(c.Context(), cmdsso.Start{
		Email: deref(in.Email), OrganizationID: in.OrganizationID, Redirect: deref(in.Redirect), IP: s.clientIP(c),
	})
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// ssoSessionBody is POST /sessions' answer, and where the sign-in was
// headed when it started (null: the home page).
type ssoSessionBody struct {
	SessionBody
	Redirect *string `json:"redirect"`
}

func (s *server) completeSSO(c fiber.Ctx) error {
	var in struct {
		State *string `json:"state"`
		Code  *string `json:"code"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	done, err := s.Commands.SSO.Complete(c.Context(), cmdsso.Complete{
		State: deref(in.State), Code: deref(in.Code), IP: s.clientIP(c), UserAgent: c.Get(fiber.HeaderUserAgent),
	})
	if err != nil {
		return err
	}
	body, err := s.sessionBody(c, done.Session)
	if err != nil {
		return err
	}
	out := ssoSessionBody{SessionBody: body}
	if done.Redirect != "" {
		out.Redirect = &done.Redirect
	}
	return c.JSON(out)
}

func (s *server) redeemSSOToken(c fiber.Ctx) error {
	scheme, token, ok := strings.Cut(c.Get(fiber.HeaderAuthorization), " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" || len(token) > 8192 {
		return apperr.ErrAuthRequired
	}
	var in struct {
		OrganizationID *uuid.UUID `json:"organizationId"`
	}
	if len(c.Body()) > 0 {
		if err := decode(c, &in); err != nil {
			return err
		}
	}
	sess, err := s.Commands.SSO.RedeemAccessToken(c.Context(), cmdsso.Redeem{
		AccessToken: token, OrganizationID: in.OrganizationID, IP: s.clientIP(c), UserAgent: c.Get(fiber.HeaderUserAgent),
	})
	if err != nil {
		return err
	}
	body, err := s.sessionBody(c, sess)
	if err != nil {
		return err
	}
	return c.JSON(body)
}
