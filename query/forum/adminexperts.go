package forum

import (
	"context"

	"github.com/google/uuid"

	"agora/internal/apperr"
	"agora/internal/auth"
)

// AdminAndExperts is GET /series/{id}/admin-and-experts.
type AdminAndExperts struct {
	auth.Caller
	Paging
	SeriesID uuid.UUID
}

// AdminAndExperts lists a forum's admins and experts for its readers:
// experts first, then admins, each by name.
func (q *Queries) AdminAndExperts(ctx context.Context, in AdminAndExperts) (Page[Member], error) {
	f := apperr.Fields{}
	in.Paging.check(f)
	if err := f.Err(); err != nil {
		return Page[Member]{}, err
	}
	if _, err := q.reader(ctx, in.Caller, in.SeriesID); err != nil {
		return Page[Member]{}, err
	}
	return q.memberPage(ctx, `WHERE sm.series_id = $1 AND (sm.role = 'admin' OR sm.is_expert)`,
		`sm.is_expert DESC, sm.role, `+byName, in.Paging, in.SeriesID)
}
