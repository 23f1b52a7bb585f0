package message

import (
	"context"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// The messages of a channel get distinct times, in order: a feed's or a
// conversation's cursor is a createdOn alone, so two messages in one
// millisecond could straddle a page and one be skipped.

// After is now unless a message of the channel was written at last (nil:
// none) or later, then the millisecond after last.
func After(last *time.Time, now time.Time) time.Time {
	if last != nil && !now.After(*last) {
		return last.Add(time.Millisecond)
	}
	return now
}

// PostTime is the createdOn of a new post of the channel written at now
// (to the millisecond), After the channel's latest post. It locks the
// channel's row until tx ends, which orders the channel's writers: the
// feed's posts, a Meet Up's post and a shared AI chat take their time here.
func PostTime(ctx context.Context, tx pgx.Tx, channelID uuid.UUID, now time.Time) (time.Time, error) {
	var last *time.Time
	c, t := table.Channels, table.Threads
	if err := db.QueryRow(ctx, tx, SELECT(SELECT(MAX(t.CreatedOn)).FROM(t).WHERE(t.ChannelID.EQ(c.ID))).
		FROM(c).WHERE(c.ID.EQ(UUID(channelID))).FOR(UPDATE())).
		Scan(&last); err != nil {
		return now, fmt.Errorf("message: channel lock: %w", err)
	}
	return After(last, now), nil
}

// PrivateTime is the createdOn of a new private message of the channel
// written at now, After the channel's latest message. The caller holds the
// channel row's lock, which orders its writers.
func PrivateTime(ctx context.Context, tx pgx.Tx, channelID uuid.UUID, now time.Time) (time.Time, error) {
	var last *time.Time
	m := table.PrivateMessages
	if err := db.QueryRow(ctx, tx, SELECT(MAX(m.CreatedOn)).FROM(m).WHERE(m.ChannelID.EQ(UUID(channelID)))).Scan(&last); err != nil {
		return now, fmt.Errorf("message: latest message: %w", err)
	}
	return After(last, now), nil
}
