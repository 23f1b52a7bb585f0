package forum

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
	"agora/internal/rules/membership"
	"agora/internal/rules/picture"
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
	// Price is a month in US cents (default 0); IsFree defaults to true.
	// The forum is paid when it is not free and its price is above 0.
	Price  *int
	IsFree *bool
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
	name, desc := text(f, "name", in.Name, 90), description(f, in.Description)
	img := picture.Check(f, "image", in.Image)
	excl := exclusivity(f, in.Exclusivity)
	if excl == "" {
		excl = InviteOnly
	}
	price(f, in.Price)
	if err := f.Err(); err != nil {
		return uuid.Nil, err
	}
	cents, free := 0, true
	if in.Price != nil {
		cents = *in.Price
	}
	if in.IsFree != nil {
		free = *in.IsFree
	}
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.Nil, err
	}
	err = db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		// One who may not read the community is told it does not exist.
		c, err := access.ManageCommunity(ctx, tx, in.UserID, in.Role, in.CommunityID)
		if err != nil {
			return err
		}
		// An image the caller uploaded is kept at its lasting address, as a
		// community's is.
		kept, err := picture.KeepField(ctx, tx, in.UserID, "image", nil, img)
		if err != nil {
			return err
		}
		now := s.now()
		s, sm, p := table.Series, table.SeriesMemberships, table.Profiles
		if _, err := db.Exec(ctx, tx, s.INSERT(s.ID, s.CommunityID, s.Name, s.Description, s.Image, s.Exclusivity, s.ShareEnabled, s.Position,
			s.PriceCents, s.IsFree, s.CreatedOn, s.UpdatedOn).
			QUERY(SELECT(UUID(id), UUID(in.CommunityID), String(name), String(desc), textOrNull(kept), String(excl),
				Bool(in.ShareEnabled != nil && *in.ShareEnabled), COALESCE(MAXi(s.Position).ADD(Int(1)), Int(0)),
				Int(int64(cents)), Bool(free), TimestampzT(now), TimestampzT(now)).
				FROM(s).WHERE(s.CommunityID.EQ(UUID(in.CommunityID))))); err != nil {
			return fmt.Errorf("forum: create: %w", err)
		}
		if c.ProfileID != uuid.Nil {
			if _, err := db.Exec(ctx, tx, sm.INSERT(sm.SeriesID, sm.ProfileID, sm.Role, sm.Status, sm.AssignedOn).
				QUERY(SELECT(UUID(id), p.ID, String("admin"), membership.JoinStatus(p), TimestampzT(now)).
					FROM(p).WHERE(p.ID.EQ(UUID(c.ProfileID)))).
				// An open forum has its community's members already
				// (migration 0025), its creator among them.
				ON_CONFLICT(sm.SeriesID, sm.ProfileID).DO_UPDATE(SET(sm.Role.SET(sm.EXCLUDED.Role)))); err != nil {
				return fmt.Errorf("forum: create: admin: %w", err)
			}
		}
		return nil
	})
	return id, err
}

// textOrNull is s as a text literal, or NULL.
func textOrNull(s *string) StringExpression {
	if s == nil {
		return StringExp(NULL)
	}
	return String(*s)
}
