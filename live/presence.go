package live

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// DB is what the hub needs of Postgres (a *pgxpool.Pool).
type DB interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// DefaultAwayAfter is how long a tab is hidden or without input before its
// member counts as away, unless configured.
const DefaultAwayAfter = 5 * time.Minute

// StaleAfter is how long a node may go without beating before its presence
// is swept and no longer counts.
const StaleAfter = time.Minute

// presence holds the hub's SQL: the node's heartbeat, its members'
// presence rows (online_users adds them up across tabs and nodes, by
// trigger) and the session checks of its connections.
type presence struct{ db DB }

func collectIDs(rows pgx.Rows, err error) ([]uuid.UUID, error) {
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
}

// liveSessions returns those of the sessions that are neither revoked nor
// expired.
func (p presence) liveSessions(ctx context.Context, sessions []uuid.UUID) (map[uuid.UUID]bool, error) {
	us, err := collectIDs(p.db.Query(ctx, `SELECT id FROM sessions
		WHERE id = ANY($1::uuid[]) AND revoked_on IS NULL AND expires_on > now()`, sessions))
	if err != nil {
		return nil, fmt.Errorf("live: sessions: %w", err)
	}
	return set(us), nil
}

// beat records that node is alive. It reports whether the node's row had
// to be made: at start, or after another node swept it as stale (a long
// pause), which took its presence rows with it.
func (p presence) beat(ctx context.Context, node string) (made bool, err error) {
	err = p.db.QueryRow(ctx, `INSERT INTO presence_nodes (node_id, beat_on) VALUES ($1, now())
		ON CONFLICT (node_id) DO UPDATE SET beat_on = now() RETURNING xmax = 0`, node).Scan(&made)
	if err != nil {
		return false, fmt.Errorf("live: presence beat: %w", err)
	}
	return made, nil
}

// sweep deletes the nodes not heard from for staleAfter (killed ones) and,
// through the cascade and the trigger, their members' presence.
func (p presence) sweep(ctx context.Context, node string, staleAfter time.Duration) error {
	_, err := p.db.Exec(ctx, `DELETE FROM presence_nodes
		WHERE node_id <> $1 AND beat_on < now() - make_interval(secs => $2)`, node, staleAfter.Seconds())
	if err != nil {
		return fmt.Errorf("live: presence sweep: %w", err)
	}
	return nil
}

// leave deletes node and its presence rows (a clean shutdown).
func (p presence) leave(ctx context.Context, node string) error {
	if _, err := p.db.Exec(ctx, `DELETE FROM presence_nodes WHERE node_id = $1`, node); err != nil {
		return fmt.Errorf("live: presence leave: %w", err)
	}
	return nil
}

// setPresent writes the member's presence row of node: absent, or present
// with every tab idle or not (migration 0017's trigger decides the status).
func (p presence) setPresent(ctx context.Context, node string, user uuid.UUID, present, idle bool) error {
	var err error
	if present {
		_, err = p.db.Exec(ctx, `INSERT INTO presence (node_id, user_id, idle) VALUES ($1, $2, $3)
			ON CONFLICT (node_id, user_id) DO UPDATE SET idle = EXCLUDED.idle WHERE presence.idle <> EXCLUDED.idle`, node, user, idle)
	} else {
		_, err = p.db.Exec(ctx, `DELETE FROM presence WHERE node_id = $1 AND user_id = $2`, node, user)
	}
	if err != nil {
		return fmt.Errorf("live: presence: %w", err)
	}
	return nil
}

// Online returns which of users have the app open on a live node: the
// question later features (the peers list) ask.
func Online(ctx context.Context, db DB, users []uuid.UUID) (map[uuid.UUID]bool, error) {
	us, err := collectIDs(db.Query(ctx, `SELECT DISTINCT p.user_id FROM presence p
		JOIN presence_nodes n ON n.node_id = p.node_id
		WHERE p.user_id = ANY($1::uuid[]) AND n.beat_on > now() - make_interval(secs => $2)`,
		users, StaleAfter.Seconds()))
	if err != nil {
		return nil, fmt.Errorf("live: online: %w", err)
	}
	return set(us), nil
}

func set(us []uuid.UUID) map[uuid.UUID]bool {
	out := make(map[uuid.UUID]bool, len(us))
	for _, u := range us {
		out[u] = true
	}
	return out
}
