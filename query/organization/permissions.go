package organization

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// Named is an organization or a community in a permissions list.
type Named struct {
	ID   uuid.UUID `json:"id"`
	Name string    `json:"name"`
}

// Permissions is GET /permissions?type=organization|community: what the
// caller may manage, each list by name (spec 000 §6: the Accounts link and
// the Add community button show by them). AddCommunitiesTo is set for
// organizations only.
type Permissions struct {
	WhichOnesCanIManage           []Named  `json:"whichOnesCanIManage"`
	WhichOnesCanIAddCommunitiesTo *[]Named `json:"whichOnesCanIAddCommunitiesTo,omitempty"`
}

// Permissions answers for type organization (the organizations the caller
// administers, all of them for a super user; the same ones take new
// communities) or community (the communities the caller may manage).
func (q *Queries) Permissions(ctx context.Context, c auth.Caller, kind string) (Permissions, error) {
	me, super := user(c)
	var stmt SelectStatement
	switch kind {
	case "":
		return Permissions{}, apperr.MissingParameters("type")
	case "organization":
		o := table.Organizations.AS("o")
		_, admin := access.OrganizationRules(o.ID, me, super)
		stmt = SELECT(o.ID, o.Name).FROM(o).WHERE(admin).ORDER_BY(o.Name, o.ID)
	case "community":
		cm := table.Communities.AS("c")
		_, manage := access.CommunityRules(cm.ID, me, super)
		stmt = SELECT(cm.ID, cm.Name).FROM(cm).WHERE(manage).ORDER_BY(cm.Name, cm.ID)
	default:
		return Permissions{}, apperr.Invalid(map[string]string{"type": "must be organization or community"})
	}
	rows, err := db.Query(ctx, q.db, stmt)
	if err != nil {
		return Permissions{}, fmt.Errorf("organization: permissions: %w", err)
	}
	defer rows.Close()
	out := Permissions{WhichOnesCanIManage: []Named{}}
	for rows.Next() {
		var n Named
		if err := rows.Scan(&n.ID, &n.Name); err != nil {
			return out, fmt.Errorf("organization: permissions: %w", err)
		}
		out.WhichOnesCanIManage = append(out.WhichOnesCanIManage, n)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("organization: permissions: %w", err)
	}
	if kind == "organization" {
		// Who administers an organization adds communities to it.
		add := append([]Named{}, out.WhichOnesCanIManage...)
		out.WhichOnesCanIAddCommunitiesTo = &add
	}
	return out, nil
}
