package forum

import (
	"context"

	"fmt"
	"strings"

	. "github.com/go-jet/jet/v2/postgres"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/membership"
)

// Staged is one staged assignment (spec 001 §3): a role for some people,
// or removal from the forum when RoleID is nil. RoleID is admin, member,
// admin-expert or member-expert.
type Staged = membership.Staged

// MaxAssignees bounds the people of one staged state.
const MaxAssignees = membership.MaxAssignees

// change is what a staged state does to one profile.
type change struct {
	remove bool
	role   string // admin or member
	expert bool
}

// parseStaged checks a staged state: known roles, profile ids as UUIDs,
// each person once.
func parseStaged(f apperr.Fields, items []Staged) (map[uuid.UUID]change, []uuid.UUID) {
	roles, order := membership.ParseStaged(f, items, func(id string) bool {
		role, expert, _ := strings.Cut(id, "-")
		return (role == "admin" || role == "member") && (expert == "" || expert == "expert")
	}, "must be admin, member, admin-expert, member-expert or null")
	changes := make(map[uuid.UUID]change, len(roles))
	for id, r := range roles {
		if r == nil {
			changes[id] = change{remove: true}
			continue
		}
		role, expert, _ := strings.Cut(*r, "-")
		changes[id] = change{role: role, expert: expert == "expert"}
	}
	return changes, order
}

// forumState is what the assignment rules read about a forum.
type forumState struct {
	exclusivity string
	communityID uuid.UUID
	orgID       uuid.UUID
	// me is the actor's profile in the organization (uuid.Nil if none).
	me      uuid.UUID
	members map[uuid.UUID]change // current memberships
	admins  map[uuid.UUID]bool
}

func loadState(ctx context.Context, tx pgx.Tx, a auth.Caller, seriesID uuid.UUID) (forumState, error) {
	st := forumState{members: map[uuid.UUID]change{}, admins: map[uuid.UUID]bool{}}
	var me *uuid.UUID
	s, c, p, sm := table.Series, table.Communities, table.Profiles, table.SeriesMemberships
	if err := db.QueryRow(ctx, tx, SELECT(s.Exclusivity, s.CommunityID, c.OrganizationID,
		SELECT(p.ID).FROM(p).WHERE(p.OrganizationID.EQ(c.OrganizationID).AND(p.UserID.EQ(UUID(a.UserID))))).
		FROM(s.INNER_JOIN(c, c.ID.EQ(s.CommunityID))).WHERE(s.ID.EQ(UUID(seriesID)))).
		Scan(&st.exclusivity, &st.communityID, &st.orgID, &me); err != nil {
		return st, fmt.Errorf("forum: state: %w", err)
	}
	if me != nil {
		st.me = *me
	}
	rows, err := db.Query(ctx, tx, SELECT(sm.ProfileID, sm.Role, sm.IsExpert).FROM(sm).WHERE(sm.SeriesID.EQ(UUID(seriesID))))
	if err != nil {
		return st, fmt.Errorf("forum: state: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id uuid.UUID
		var c change
		if err := rows.Scan(&id, &c.role, &c.expert); err != nil {
			return st, err
		}
		st.members[id] = c
		if c.role == "admin" {
			st.admins[id] = true
		}
	}
	return st, rows.Err()
}

// checkCommunity refuses people who would join the forum without being
// members (active or invited) of its community, unknown ids included. The
// forum's current members may change or go even if they left the
// community.
func checkCommunity(ctx context.Context, tx pgx.Tx, st forumState, all []uuid.UUID) error {
	var ids []uuid.UUID
	for _, id := range all {
		if _, member := st.members[id]; !member {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	var n int
	cm := table.CommunityMemberships
	if err := db.QueryRow(ctx, tx, SELECT(COUNT(STAR)).FROM(cm).
		WHERE(cm.CommunityID.EQ(UUID(st.communityID)).AND(cm.ProfileID.IN(db.UUIDs(ids)...)))).Scan(&n); err != nil {
		return fmt.Errorf("forum: community members: %w", err)
	}
	if n != len(ids) {
		return apperr.Invalid(map[string]string{"assigneeIds": "every person must be a member of the forum's community"})
	}
	return nil
}

// adminsAfter are the forum's admins once changes apply.
func (st forumState) adminsAfter(changes map[uuid.UUID]change) map[uuid.UUID]bool {
	after := map[uuid.UUID]bool{}
	for id := range st.admins {
		after[id] = true
	}
	for id, c := range changes {
		if !c.remove && c.role == "admin" {
			after[id] = true
		} else {
			delete(after, id)
		}
	}
	return after
}

// stagedState authorises a forum admin, then reads the forum's memberships
// under its row lock and checks that the people named belong to the
// forum's community: the start of every call that weighs a staged state.
func stagedState(ctx context.Context, tx pgx.Tx, a auth.Caller, seriesID uuid.UUID, named []uuid.UUID) (forumState, error) {
	if _, err := forumAdmin(ctx, tx, a, seriesID); err != nil {
		return forumState{}, err
	}
	st, err := loadState(ctx, tx, a, seriesID)
	if err != nil {
		return forumState{}, err
	}
	return st, checkCommunity(ctx, tx, st, named)
}
