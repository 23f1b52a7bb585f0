package feed

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// The lookups below read one piece of a post as the feed shows it, for the
// live events (projections/realtime), which complete a change's payload
// when they deliver it. They check no rights: the events' audience is
// decided apart, from the same rules (internal/rules/access).

// isExpert is whether user is an expert of forum series: the flag of their
// active membership of it, which the feed shows beside a creator.
func isExpert(user, series StringExpression) BoolExpression {
	sm, p := table.SeriesMemberships.AS("sm"), table.Profiles.AS("p")
	return EXISTS(SELECT(sm.ProfileID).FROM(sm.INNER_JOIN(p, p.ID.EQ(sm.ProfileID))).
		WHERE(p.UserID.EQ(user).AND(sm.SeriesID.EQ(series)).AND(sm.IsExpert).AND(sm.Status.EQ(String("active")))))
}

// isExpertSQL is isExpert as SQL text, for threadsSQL, which stays text
// (internal/plumbing/db's package doc says why); user and series are SQL
// expressions there.
func isExpertSQL(user, series string) string {
	return db.Text(isExpert(RawString(user), RawString(series)))
}

// Creator reads the author of a post or comment in forum seriesID as the
// feed shows them.
func (q *Queries) Creator(ctx context.Context, userID, seriesID uuid.UUID) (Creator, error) {
	c := Creator{UserID: userID}
	u := table.Users.AS("u")
	err := db.QueryRow(ctx, q.pool, SELECT(u.FirstName, u.LastName, u.Avatar, isExpert(u.ID, UUID(seriesID))).
		FROM(u).WHERE(u.ID.EQ(UUID(userID)))).Scan(&c.FirstName, &c.LastName, &c.Avatar, &c.IsExpert)
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
	t := table.Threads
	err = db.QueryRow(ctx, q.pool, SELECT(t.ChannelID, t.SeriesID).FROM(t).WHERE(t.ID.EQ(UUID(threadID)))).Scan(&channelID, &seriesID)
	if err != nil {
		return channelID, seriesID, fmt.Errorf("feed: thread: %w", err)
	}
	return channelID, seriesID, nil
}
