package forum

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// Get is GET /series/{id}: a forum its reader opens, or a member who has
// not paid for it (isSubscribed false: the client's subscribe prompt). An
// unknown forum, and one the caller may not see, is
// access.ErrForumNotFound.
func (q *Queries) Get(ctx context.Context, c auth.Caller, seriesID uuid.UUID) (Forum, error) {
	if _, err := access.ViewForum(ctx, q.db, c.UserID, c.Role, seriesID); err != nil {
		return Forum{}, err
	}
	fs, err := readForums(ctx, q.db, forumSelect(c, table.Series.ID.EQ(UUID(seriesID))))
	if err != nil {
		return Forum{}, fmt.Errorf("forum: get: %w", err)
	}
	if len(fs) == 0 {
		return Forum{}, access.ErrForumNotFound
	}
	return fs[0], nil
}
