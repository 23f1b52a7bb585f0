package forum

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"agora/internal/auth"
)

// Get is GET /series/{id}: a forum its reader opens. An unknown forum is
// not found; one the caller may not read is ErrSeriesForbidden.
func (q *Queries) Get(ctx context.Context, c auth.Caller, seriesID uuid.UUID) (Forum, error) {
	if _, err := q.reader(ctx, c, seriesID); err != nil {
		return Forum{}, err
	}
	rows, err := q.db.QueryContext(ctx, forumSelect()+` AND s.id = $3`, c.UserID, c.Role == "super", seriesID)
	if err != nil {
		return Forum{}, fmt.Errorf("forum: get: %w", err)
	}
	fs, err := scanForums(rows)
	if err != nil {
		return Forum{}, fmt.Errorf("forum: get: %w", err)
	}
	if len(fs) == 0 {
		return Forum{}, ErrSeriesForbidden
	}
	return fs[0], nil
}
