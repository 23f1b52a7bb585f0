package forum

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/google/uuid"

	"agora/internal/access"
	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db"
)

// Create is POST /communities/{id}/series.
type Create struct {
	auth.Caller
	CommunityID  uuid.UUID
	Name         *string
	Description  *string
	Image        *string
	Exclusivity  *string
	ShareEnabled *bool
}

// Create adds a forum at the end of its community's order, for the
// community's admins. The spec is silent on who administers a new forum:
// the creator does, when they have a profile in the organization (a super
// user may have none; community admins manage the forum anyway).
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
	f := apperr.Fields{}
	name, desc := text(f, "name", in.Name, 90), text(f, "description", in.Description, 1000)
	img := image(f, in.Image)
	excl := exclusivity(f, in.Exclusivity)
	if excl == "" {
		excl = InviteOnly
	}
	if err := f.Err(); err != nil {
		return uuid.Nil, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.Nil, err
	}
	err = db.InTx(ctx, s.db, func(tx *sql.Tx) error {
		c, err := access.InCommunity(ctx, tx, in.UserID, in.Role, in.CommunityID)
		if err != nil {
			return err
		}
		if !c.Admin {
			return ErrCommunityAdminOnly
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO series (id, community_id, name, description, image, exclusivity, share_enabled, position, created_on, updated_on)
			SELECT $1, $2, $3, $4, $5, $6, $7, coalesce(max(position) + 1, 0), $8, $8 FROM series WHERE community_id = $2`,
			id, in.CommunityID, name, desc, img, excl, in.ShareEnabled != nil && *in.ShareEnabled, now); err != nil {
			return fmt.Errorf("forum: create: %w", err)
		}
		if c.ProfileID != uuid.Nil {
			if _, err := tx.ExecContext(ctx, `
				INSERT INTO series_memberships (series_id, profile_id, role, status, assigned_on)
				SELECT $1, p.id, 'admin', CASE WHEN p.user_id IS NULL THEN 'pending' ELSE 'active' END, $3
				FROM profiles p WHERE p.id = $2`, id, c.ProfileID, now); err != nil {
				return fmt.Errorf("forum: create: admin: %w", err)
			}
		}
		return nil
	})
	return id, err
}
