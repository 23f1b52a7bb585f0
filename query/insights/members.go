package insights

import (
	"context"
	"fmt"
	"math"
	"sort"

	. "github.com/go-jet/jet/v2/postgres"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"

	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
)

// MembersReport is GET /reports/members/{seriesId}.
type MembersReport struct {
	Freshness
	Counts     MemberCounts `json:"counts"`
	VisitorIDs []uuid.UUID  `json:"visitorIds"`
}

// MemberCounts are the members report's figures.
type MemberCounts struct {
	// Visitors are the members now who opened the forum in the period.
	Visitors int `json:"visitors"`
	// AvgVisitsPerMember is the visitors' visits over Visitors, to one
	// decimal (0 without visitors).
	AvgVisitsPerMember float64 `json:"avgVisitsPerMember"`
	DidNotVisit        int     `json:"didNotVisit"`
	// Total are the forum's members now.
	Total int `json:"total"`
}

// Members is the members report. Who is a member now is Postgres's answer
// (active memberships of profiles with an account), the same that grants
// access, so a member who just left is out at once; the visits come from
// the warehouse.
func (q *Queries) Members(ctx context.Context, r Request) (MembersReport, error) {
	f, err := q.open(ctx, r, apperr.Fields{})
	if err != nil {
		return MembersReport{}, err
	}
	return q.members(ctx, f)
}

func (q *Queries) members(ctx context.Context, f forum) (MembersReport, error) {
	fresh, err := q.freshness(ctx, f)
	if err != nil {
		return MembersReport{}, err
	}
	members, err := q.memberIDs(ctx, f)
	if err != nil {
		return MembersReport{}, err
	}
	visits, err := q.store.Visits(ctx, f.scope())
	if err != nil {
		return MembersReport{}, err
	}
	rep := MembersReport{Freshness: fresh, VisitorIDs: []uuid.UUID{}}
	total := 0
	for id := range members {
		if n := visits[id]; n > 0 {
			rep.VisitorIDs = append(rep.VisitorIDs, id)
			total += n
		}
	}
	sort.Slice(rep.VisitorIDs, func(i, j int) bool { return rep.VisitorIDs[i].String() < rep.VisitorIDs[j].String() })
	c := &rep.Counts
	c.Total, c.Visitors = len(members), len(rep.VisitorIDs)
	c.DidNotVisit = c.Total - c.Visitors
	if c.Visitors > 0 {
		c.AvgVisitsPerMember = math.Round(float64(total)*10/float64(c.Visitors)) / 10
	}
	return rep, nil
}

// memberIDs are the users who are members of the forum now.
func (q *Queries) memberIDs(ctx context.Context, f forum) (map[uuid.UUID]bool, error) {
	sm, p := table.SeriesMemberships, table.Profiles
	ids, err := db.Values[uuid.UUID](ctx, q.db, SELECT(p.UserID).DISTINCT().
		FROM(sm.INNER_JOIN(p, p.ID.EQ(sm.ProfileID))).
		WHERE(sm.SeriesID.EQ(UUID(f.id)).AND(sm.Status.EQ(String("active"))).AND(p.UserID.IS_NOT_NULL())))
	if err != nil {
		return nil, fmt.Errorf("insights: members: %w", err)
	}
	out := make(map[uuid.UUID]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// MaxVisitorIDs bounds the ids a mia-members call sends.
const MaxVisitorIDs = 100000

// MissingMembers is the body of POST /series/{seriesId}/mia-members.
type MissingMembers struct {
	Caller   auth.Caller
	SeriesID uuid.UUID
	// VisitorIDs are user ids as sent.
	VisitorIDs []string
}

// MissingCount is the answer of mia-members.
type MissingCount struct {
	MembersCount int `json:"membersCount"`
	MIACount     int `json:"miaCount"`
}

// Missing counts the forum's members now who are not among the visitors
// given (ids of non-members are ignored), from Postgres alone.
func (q *Queries) Missing(ctx context.Context, in MissingMembers) (MissingCount, error) {
	bad := apperr.Fields{}
	seen := map[uuid.UUID]bool{}
	switch {
	case in.VisitorIDs == nil:
		bad.Add("visitorIds", "required: an array of user ids")
	case len(in.VisitorIDs) > MaxVisitorIDs:
		bad.Add("visitorIds", fmt.Sprintf("at most %d ids", MaxVisitorIDs))
	default:
		for _, s := range in.VisitorIDs {
			id, err := uuid.Parse(s)
			if err != nil {
				bad.Add("visitorIds", "must be user ids (UUIDs)")
				break
			}
			seen[id] = true
		}
	}
	if err := bad.Err(); err != nil {
		return MissingCount{}, err
	}
	f, err := q.admin(ctx, in.Caller, in.SeriesID)
	if err != nil {
		return MissingCount{}, err
	}
	members, err := q.memberIDs(ctx, f)
	if err != nil {
		return MissingCount{}, err
	}
	out := MissingCount{MembersCount: len(members)}
	for id := range members {
		if !seen[id] {
			out.MIACount++
		}
	}
	return out, nil
}
