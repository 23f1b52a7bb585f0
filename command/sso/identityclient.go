package sso

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/outbound"
	"agora/internal/rules/access"
)

// SetIdentityClient is PUT /organizations/{id}/identity-client.
type SetIdentityClient struct {
	OrganizationID                 uuid.UUID
	Issuer, ClientID, ClientSecret string
}

// authorize lets an organization's admins and super users manage its
// identity client; members are refused, others do not see the organization.
func (s *Service) authorize(ctx context.Context, caller auth.Caller, orgID uuid.UUID) error {
	o, err := access.SeeOrganization(ctx, s.db, caller.UserID, caller.Role, orgID)
	if err != nil {
		return err
	}
	if !o.Admin {
		return apperr.ErrForbidden
	}
	return nil
}

// SetIdentityClient enables single sign-on for an organization, or changes
// its client. The issuer's discovery document is fetched first: a client
// that could never sign anyone in is refused. The secret is stored where
// neither the change stream nor any answer carries it; the organization's
// row says only the issuer.
func (s *Service) SetIdentityClient(ctx context.Context, caller auth.Caller, in SetIdentityClient) error {
	in.Issuer, in.ClientID = strings.TrimSpace(in.Issuer), strings.TrimSpace(in.ClientID)
	var missing []string
	for name, v := range map[string]string{"issuer": in.Issuer, "clientId": in.ClientID, "clientSecret": in.ClientSecret} {
		if v == "" {
			missing = append(missing, name)
		}
	}
	if err := s.authorize(ctx, caller, in.OrganizationID); err != nil {
		return err
	}
	if len(missing) > 0 {
		return apperr.MissingParameters(missing...)
	}
	f := apperr.Fields{}
	if msg := checkIssuer(in.Issuer, s.guard); msg != "" {
		f.Add("issuer", msg)
	}
	if len(in.ClientID) > 512 {
		f.Add("clientId", "must be at most 512 characters")
	}
	if len(in.ClientSecret) > 1024 {
		f.Add("clientSecret", "must be at most 1024 characters")
	}
	if err := f.Err(); err != nil {
		return err
	}
	// The provider's own answer is not repeated: it could be any page of
	// any server the admin names. It is asked now rather than taken from
	// the discoveries kept for sign-ins, so that the check is of what the
	// provider answers today; sign-ins then reuse that answer.
	if _, err := s.providers.refresh(ctx, in.Issuer); err != nil {
		return apperr.Invalid(map[string]string{"issuer": "its OpenID Connect discovery document could not be read, or names another issuer"})
	}
	now := s.now()
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		ic := table.IdentityClients
		row := model.IdentityClients{OrganizationID: in.OrganizationID, Issuer: in.Issuer, ClientID: in.ClientID, ClientSecret: in.ClientSecret, CreatedOn: now, UpdatedOn: now}
		if _, err := db.Exec(ctx, tx, ic.INSERT(ic.AllColumns).MODEL(row).
			ON_CONFLICT(ic.OrganizationID).DO_UPDATE(SET(
			ic.Issuer.SET(ic.EXCLUDED.Issuer), ic.ClientID.SET(ic.EXCLUDED.ClientID),
			ic.ClientSecret.SET(ic.EXCLUDED.ClientSecret), ic.UpdatedOn.SET(ic.EXCLUDED.UpdatedOn)))); err != nil {
			return fmt.Errorf("sso: set identity client: %w", err)
		}
		return s.markOrganization(ctx, tx, in.OrganizationID, String(in.Issuer))
	})
}

// RemoveIdentityClient is DELETE /organizations/{id}/identity-client: single
// sign-on off. Sign-ins under way through it fail; sessions stay.
func (s *Service) RemoveIdentityClient(ctx context.Context, caller auth.Caller, orgID uuid.UUID) error {
	if err := s.authorize(ctx, caller, orgID); err != nil {
		return err
	}
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := db.Exec(ctx, tx, table.IdentityClients.DELETE().WHERE(table.IdentityClients.OrganizationID.EQ(UUID(orgID)))); err != nil {
			return fmt.Errorf("sso: remove identity client: %w", err)
		}
		return s.markOrganization(ctx, tx, orgID, NULL)
	})
}

// markOrganization sets organizations.identity_client in the transaction
// that changes the client, so the published row never disagrees with it.
func (s *Service) markOrganization(ctx context.Context, tx pgx.Tx, orgID uuid.UUID, issuer Expression) error {
	o := table.Organizations
	if _, err := db.Exec(ctx, tx, o.UPDATE(o.IdentityClient, o.UpdatedOn).SET(issuer, TimestampzT(s.now())).
		WHERE(o.ID.EQ(UUID(orgID)))); err != nil {
		return fmt.Errorf("sso: organization: %w", err)
	}
	return nil
}

// identityClient reads an organization's client; none is ErrUnavailable.
func (s *Service) identityClient(ctx context.Context, q db.Querier, orgID uuid.UUID) (model.IdentityClients, error) {
	row, err := db.One[model.IdentityClients](ctx, q, SELECT(table.IdentityClients.AllColumns).FROM(table.IdentityClients).
		WHERE(table.IdentityClients.OrganizationID.EQ(UUID(orgID))))
	if errors.Is(err, pgx.ErrNoRows) {
		return row, ErrUnavailable
	}
	return row, err
}

// checkIssuer accepts an https URL, as OpenID Connect requires, or http on
// an address guard allows exactly (agora dev's test provider, on loopback),
// and refuses a host that guard is sure to refuse when dialled.
func checkIssuer(issuer string, guard *outbound.Guard) string {
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || len(issuer) > 2048 {
		return "must be the issuer's URL"
	}
	switch {
	case u.Scheme != "https" && !(u.Scheme == "http" && guard.AllowedURL(u)):
		return "must be an https URL"
	case guard.RefusesHost(u):
		return "must not be a private or loopback address"
	}
	return ""
}
