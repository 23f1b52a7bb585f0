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
	"agora/internal/rules/membership"
)

// Assign is POST /communities/{id}/assignments: the share dialog's staged
// changes, a role (admin or member) or removal (nil) per person.
type Assign struct {
	auth.Caller
	CommunityID uuid.UUID
	Assignments []membership.Staged
}

// AssignBulk is POST /communities/{id}/assignments/bulk: one role, or
// removal, for everyone the selection lists but the caller.
type AssignBulk struct {
	auth.Caller
	CommunityID uuid.UUID
	// RoleID is admin, member, or nil to remove.
	RoleID *string
	membership.Selection
}

// Changed counts the people whose membership an assignment changed.
type Changed struct {
	Changed int `json:"changed"`
}

// communityRole reports whether id is a role the share dialog gives.
func communityRole(id string) bool { return id == membership.RoleAdmin || id == membership.RoleMember }

const roleHint = "must be admin, member or null"

// Assign applies the staged changes at once, for those who manage the
// community: new members join (active when they have an account, pending
// otherwise), members change role, and a nil role removes them from the
// community and from its forums.
func (s *Service) Assign(ctx context.Context, in Assign) (Changed, error) {
	f := apperr.Fields{}
	if len(in.Assignments) == 0 {
		f.Add("assignments", "must stage at least one change")
	}
	roles, order := membership.ParseStaged(f, in.Assignments, communityRole, roleHint)
	if err := f.Err(); err != nil {
		return Changed{}, err
	}
	return s.change(ctx, in.Caller, in.CommunityID, func(tx pgx.Tx, c access.Community) (map[uuid.UUID]*string, error) {
		if _, own := roles[c.ProfileID]; own && c.ProfileID != uuid.Nil {
			return nil, membership.ErrOwnAssignment
		}
		p := table.Profiles
		var n int
		if err := db.QueryRow(ctx, tx, SELECT(COUNT(STAR)).FROM(p).
			WHERE(db.Any(p.ID, order).AND(p.OrganizationID.EQ(UUID(c.OrganizationID))))).Scan(&n); err != nil {
			return nil, fmt.Errorf("community: assign: %w", err)
		}
		if n != len(order) {
			return nil, apperr.Invalid(map[string]string{"assigneeIds": "every person must be a profile of the community's organization"})
		}
		return roles, nil
	})
}

// AssignBulk applies one change to everyone the selection lists, except
// the caller, for those who manage the community.
func (s *Service) AssignBulk(ctx context.Context, in AssignBulk) (Changed, error) {
	f := apperr.Fields{}
	if in.RoleID != nil && !communityRole(*in.RoleID) {
		f.Add("roleId", roleHint)
	}
	in.Selection.Check(f)
	if err := f.Err(); err != nil {
		return Changed{}, err
	}
	return s.change(ctx, in.Caller, in.CommunityID, func(tx pgx.Tx, c access.Community) (map[uuid.UUID]*string, error) {
		p := membership.SelProfile
		ids, err := db.Values[uuid.UUID](ctx, tx, SELECT(p.ID).FROM(membership.From(in.CommunityID)).
			WHERE(in.Selection.Where(c.OrganizationID).AND(p.ID.NOT_EQ(UUID(c.ProfileID)))))
		if err != nil {
			return nil, fmt.Errorf("community: bulk assign: %w", err)
		}
		roles := make(map[uuid.UUID]*string, len(ids))
		for _, id := range ids {
			roles[id] = in.RoleID
		}
		return roles, nil
	})
}

// change runs a share change in one transaction: it checks that the
// caller manages the community, asks which people get which role (nil:
// removal), and applies it.
func (s *Service) change(ctx context.Context, caller auth.Caller, communityID uuid.UUID,
	which func(tx pgx.Tx, c access.Community) (map[uuid.UUID]*string, error)) (Changed, error) {
	var out Changed
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		c, err := manager(ctx, tx, caller, communityID)
		if err != nil {
			return err
		}
		roles, err := which(tx, c)
		if err != nil {
			return err
		}
		out.Changed, err = s.apply(ctx, tx, communityID, roles)
		return err
	})
	return out, err
}

// manager checks that the caller manages the community; inside tx, the
// community row is locked so that its changes queue up and it is not
// deleted under them.
func manager(ctx context.Context, tx pgx.Tx, c auth.Caller, communityID uuid.UUID) (access.Community, error) {
	if err := db.Lock(ctx, tx, table.Communities, table.Communities.ID, communityID, access.ErrCommunityNotFound); err != nil {
		return access.Community{}, err
	}
	return access.ManageCommunity(ctx, tx, c.UserID, c.Role, communityID)
}

// apply writes each person's role, or removes them (nil), and returns how
// many memberships changed. A person removed from a community loses its
// forums too: a forum is read through its community, and a membership
// left behind would give them back its forums the day they are invited
// again. cascadingAdmin counts as admin: giving it admin changes nothing.
func (s *Service) apply(ctx context.Context, tx pgx.Tx, communityID uuid.UUID, roles map[uuid.UUID]*string) (int, error) {
	byRole := map[string][]uuid.UUID{}
	var removed []uuid.UUID
	for id, r := range roles {
		if r == nil {
			removed = append(removed, id)
		} else {
			byRole[*r] = append(byRole[*r], id)
		}
	}
	changed := 0
	cm, sm, p := table.CommunityMemberships, table.SeriesMemberships, table.Profiles
	if len(removed) > 0 {
		res, err := db.Exec(ctx, tx, cm.DELETE().WHERE(cm.CommunityID.EQ(UUID(communityID)).AND(db.Any(cm.ProfileID, removed))))
		if err != nil {
			return 0, fmt.Errorf("community: remove members: %w", err)
		}
		changed += int(res.RowsAffected())
		if _, err := db.Exec(ctx, tx, sm.DELETE().WHERE(db.Any(sm.ProfileID, removed).
			AND(sm.SeriesID.IN(SELECT(table.Series.ID).FROM(table.Series).WHERE(table.Series.CommunityID.EQ(UUID(communityID))))))); err != nil {
			return 0, fmt.Errorf("community: remove forum members: %w", err)
		}
	}
	shown := StringExp(CASE(cm.Role).WHEN(String("cascadingAdmin")).THEN(String("admin")).ELSE(cm.Role))
	now := TimestampzT(s.now())
	for role, ids := range byRole {
		res, err := db.Exec(ctx, tx, cm.INSERT(cm.CommunityID, cm.ProfileID, cm.Role, cm.Status, cm.AssignedOn).
			QUERY(SELECT(UUID(communityID), p.ID, String(role), membership.JoinStatus(p), now).FROM(p).WHERE(db.Any(p.ID, ids))).
			ON_CONFLICT(cm.CommunityID, cm.ProfileID).
			DO_UPDATE(SET(cm.Role.SET(cm.EXCLUDED.Role)).WHERE(shown.NOT_EQ(cm.EXCLUDED.Role))))
		if err != nil {
			return 0, fmt.Errorf("community: assign: %w", err)
		}
		changed += int(res.RowsAffected())
	}
	return changed, nil
}
