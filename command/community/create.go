package community

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
	"agora/internal/rules/picture"
)

// Create is POST /organizations/{organizationId}/communities.
type Create struct {
	auth.Caller
	OrganizationID uuid.UUID
	Form
}

// Create adds a community to an organization, for its admins and super
// users. The creator, when they have a profile in the organization,
// becomes its active admin, so that it shows in their list.
func (s *Service) Create(ctx context.Context, in Create) (uuid.UUID, error) {
	var missing []string
	if in.Name == nil {
		missing = append(missing, "name")
	}
	if in.Description == nil {
		missing = append(missing, "description")
	}
	if len(missing) > 0 {
		return uuid.Nil, apperr.MissingParameters(missing...)
	}
	bad := apperr.Fields{}
	f := in.check(bad)
	if err := bad.Err(); err != nil {
		return uuid.Nil, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.Nil, err
	}
	price, isFree, sso := DefaultPrice, true, false
	if in.Price != nil {
		price = *in.Price
	}
	if in.IsFree != nil {
		isFree = *in.IsFree
	}
	if in.SSOAccess != nil {
		sso = *in.SSOAccess
	}
	err = db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		o, err := access.SeeOrganization(ctx, tx, in.UserID, in.Role, in.OrganizationID)
		if err != nil {
			return err
		}
		if !o.Admin {
			return apperr.ErrForbidden
		}
		image, err := picture.KeepField(ctx, tx, in.UserID, "image", nil, f.image)
		if err != nil {
			return err
		}
		now := s.now()
		c, cm := table.Communities, table.CommunityMemberships
		if _, err := db.Exec(ctx, tx, c.INSERT(c.ID, c.OrganizationID, c.Name, c.Description, c.MembershipType, c.Image, c.Video, c.VideoCover,
			c.SsoAccess, c.PriceCents, c.IsFree, c.CreatedOn, c.UpdatedOn).
			VALUES(UUID(id), UUID(in.OrganizationID), String(f.name), String(f.description), String(InvitationOnly), textOrNull(image),
				textOrNull(f.video), textOrNull(f.videoCover), Bool(sso), Int(int64(price)), Bool(isFree), TimestampzT(now), TimestampzT(now))); err != nil {
			return fmt.Errorf("community: create: %w", err)
		}
		if o.ProfileID == uuid.Nil {
			return nil
		}
		if _, err := db.Exec(ctx, tx, cm.INSERT(cm.CommunityID, cm.ProfileID, cm.Role, cm.Status, cm.AssignedOn).
			VALUES(UUID(id), UUID(o.ProfileID), String("admin"), String("active"), TimestampzT(now))); err != nil {
			return fmt.Errorf("community: create: admin: %w", err)
		}
		return nil
	})
	return id, err
}
