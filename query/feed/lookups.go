package feed

import (
	"context"
	"fmt"

	"github.com/google/uuid"
)

// The lookups below read one piece of a post as the feed shows it, for the
// live events (projections/realtime), which complete a change's payload
// when they deliver it. They check no rights: the events' audience is
// decided apart, from the same rules (internal/access).

// isExpertSQL is whether user is an expert of forum series: the flag of
// their active membership of it, which the feed shows beside a creator.
func isExpertSQL(user, series string) string {
	return `EXISTS (SELECT 1 FROM series_memberships sm JOIN profiles p ON p.id = sm.profile_id
		WHERE p.user_id = ` + user + ` AND sm.series_id = ` + series + ` AND sm.is_expert AND sm.status = 'active')`
}

// Creator reads the author of a post or comment in forum seriesID as the
// feed shows them.
func (q *Queries) Creator(ctx context.Context, userID, seriesID uuid.UUID) (Creator, error) {
	c := Creator{UserID: userID}
	err := q.pool.QueryRow(ctx, `SELECT u.first_name, u.last_name, u.avatar, `+isExpertSQL("u.id", "$2")+`
		FROM users u WHERE u.id = $1`, userID, seriesID).Scan(&c.FirstName, &c.LastName, &c.Avatar, &c.IsExpert)
	if err != nil {
		return c, fmt.Errorf("feed: creator: %w", err)
	}
	return c, nil
}

// Counts reads the reaction counts of a post (replyID nil) or of one of
// its comments or replies.
func (q *Queries) Counts(ctx context.Context, threadID uuid.UUID, replyID *uuid.UUID) (Stats, error) {
	s, err := q.summary(ctx, threadID, replyID, uuid.Nil)
	return s.Reactions, err
}

// Place reads the channel and forum of a post.
func (q *Queries) Place(ctx context.Context, threadID uuid.UUID) (channelID, seriesID uuid.UUID, err error) {
	err = q.pool.QueryRow(ctx, `SELECT channel_id, series_id FROM threads WHERE id = $1`, threadID).Scan(&channelID, &seriesID)
	if err != nil {
		return channelID, seriesID, fmt.Errorf("feed: thread: %w", err)
	}
	return channelID, seriesID, nil
}
