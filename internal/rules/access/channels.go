package access

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// Channel is a forum channel a user may read.
type Channel struct {
	ID       uuid.UUID
	SeriesID uuid.UUID
	// Kind is "main" (the feed) or "admin" (the admins' channel).
	Kind string
}

// ReadableChannels lists the forum channels the user may read: the main
// channel of each forum they read, the admin channel of each forum they
// administer, as Forum.Read and Forum.Admin decide. With forums given,
// only the channels of those. Searches scope their results with it.
func ReadableChannels(ctx context.Context, q db.Querier, userID uuid.UUID, role auth.Role, forums ...uuid.UUID) ([]Channel, error) {
	s, c := table.Series, table.Channels
	member, admin := ForumRules(s.ID, s.CommunityID, UUID(userID), Bool(role == auth.RoleSuper))
	where := BoolExp(CASE(c.Kind).WHEN(String("main")).THEN(member.OR(admin)).ELSE(admin))
	if len(forums) > 0 {
		ids := make([]Expression, len(forums))
		for i, id := range forums {
			ids[i] = UUID(id)
		}
		where = s.ID.IN(ids...).AND(where)
	}
	stmt := SELECT(c.ID.AS("id"), c.SeriesID.AS("series_id"), c.Kind.AS("kind")).
		FROM(s.INNER_JOIN(c, c.SeriesID.EQ(s.ID))).
		WHERE(where)
	out, err := db.All[Channel](ctx, q, stmt)
	if err != nil {
		return nil, fmt.Errorf("access: readable channels: %w", err)
	}
	return out, nil
}
