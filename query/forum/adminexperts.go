package forum

import (
	"context"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/paging"
	"agora/internal/rules/membership"
)

// AdminAndExperts is GET /series/{id}/admin-and-experts.
type AdminAndExperts struct {
	auth.Caller
	paging.Request
	SeriesID uuid.UUID
}

// AdminAndExperts lists a forum's admins and experts for its readers:
// experts first, then admins, each by name.
func (q *Queries) AdminAndExperts(ctx context.Context, in AdminAndExperts) (paging.Page[Member], error) {
	f := apperr.Fields{}
	in.Request.Check(f, MaxPageSize)
	if err := f.Err(); err != nil {
		return paging.Page[Member]{}, err
	}
	if _, err := q.reader(ctx, in.Caller, in.SeriesID); err != nil {
		return paging.Page[Member]{}, err
	}
	return q.memberPage(ctx, msm.SeriesID.EQ(UUID(in.SeriesID)).AND(msm.Role.EQ(String("admin")).OR(msm.IsExpert)),
		append([]OrderByClause{msm.IsExpert.DESC(), msm.Role}, membership.ByName(mp, mu)...), in.Request)
}
