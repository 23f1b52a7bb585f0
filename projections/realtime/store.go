package realtime

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"agora/internal/access"
)

// DB is what the hub and the projection need of Postgres (a *pgxpool.Pool).
type DB interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// store holds the realtime SQL: presence writes, session checks and the
// read model's "who may read this", asked only about connected members.
type store struct{ db DB }

func ids(us []uuid.UUID) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.String()
	}
	return out
}

func scanIDs(rows pgx.Rows, err error) ([]uuid.UUID, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []uuid.UUID
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		u, err := uuid.Parse(s)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// audienceSQL selects, among the candidates $1, the members of an
// audience about $2. readers mirrors query/account's visibleTo: keep them
// together.
var audienceSQL = map[AudienceKind]string{
	ReadersOfUser: `SELECT v.id::text FROM users v
		WHERE v.id = ANY($1::uuid[]) AND (v.id = $2::uuid OR v.role = 'super'
		OR EXISTS (SELECT 1 FROM profiles tp
			JOIN community_memberships theirs ON theirs.profile_id = tp.id
			JOIN community_memberships ours ON ours.community_id = theirs.community_id AND ours.status = 'active'
			JOIN profiles mp ON mp.id = ours.profile_id
			WHERE tp.user_id = $2::uuid AND mp.user_id = v.id)
		OR EXISTS (SELECT 1 FROM profiles tp
			JOIN profiles ap ON ap.organization_id = tp.organization_id AND ap.role = 'admin'
			WHERE tp.user_id = $2::uuid AND ap.user_id = v.id))`,
	CommunityMembers: `SELECT DISTINCT p.user_id::text FROM community_memberships m
		JOIN profiles p ON p.id = m.profile_id
		WHERE m.community_id = $2::uuid AND m.status = 'active' AND p.user_id = ANY($1::uuid[])`,
	SeriesMembers: `SELECT DISTINCT p.user_id::text FROM series_memberships m
		JOIN profiles p ON p.id = m.profile_id
		WHERE m.series_id = $2::uuid AND m.status = 'active' AND p.user_id = ANY($1::uuid[])`,
	UserOfProfile: `SELECT p.user_id::text FROM profiles p
		WHERE p.id = $2::uuid AND p.user_id = ANY($1::uuid[])`,
	ChannelReaders: channelReadersSQL(`SELECT f.id, f.community_id, c.kind FROM channels c
		JOIN series f ON f.id = c.series_id WHERE c.id = $2::uuid`),
	ThreadReaders: channelReadersSQL(`SELECT f.id, f.community_id, c.kind FROM threads t
		JOIN channels c ON c.id = t.channel_id JOIN series f ON f.id = c.series_id WHERE t.id = $2::uuid`),
}

// channelReadersSQL selects the readers of one channel; channel is a query
// of the channel's forum (its id and community_id) and its kind. Who reads
// a forum is internal/access's rule, the one the feed's reads apply,
// written once there.
func channelReadersSQL(channel string) string {
	member, admin := access.ForumSQL("v.id", "v.role = 'super'")
	return `SELECT v.id::text FROM users v CROSS JOIN (` + channel + `) s
		WHERE v.id = ANY($1::uuid[])
		  AND ((s.kind = 'main' AND (` + member + ` OR ` + admin + `)) OR (s.kind = 'admin' AND ` + admin + `))`
}

// audience returns the candidates who belong to a.
func (s store) audience(ctx context.Context, a Audience, candidates []uuid.UUID) ([]uuid.UUID, error) {
	q, ok := audienceSQL[a.Kind]
	if !ok {
		return nil, fmt.Errorf("realtime: unknown audience %d", a.Kind)
	}
	us, err := scanIDs(s.db.Query(ctx, q, ids(candidates), a.ID.String()))
	if err != nil {
		return nil, fmt.Errorf("realtime: audience %d: %w", a.Kind, err)
	}
	return us, nil
}

var existsSQL = map[string]string{
	"communities": `SELECT EXISTS (SELECT 1 FROM communities WHERE id = $1::uuid)`,
	"series":      `SELECT EXISTS (SELECT 1 FROM series WHERE id = $1::uuid)`,
	"replies":     `SELECT EXISTS (SELECT 1 FROM replies WHERE id = $1::uuid)`,
}

// holds evaluates a condition.
func (s store) holds(ctx context.Context, c Condition) (bool, error) {
	q, ok := existsSQL[c.Table]
	if !ok {
		return false, fmt.Errorf("realtime: no condition on table %q", c.Table)
	}
	var exists bool
	if err := s.db.QueryRow(ctx, q, c.ID.String()).Scan(&exists); err != nil {
		return false, fmt.Errorf("realtime: condition: %w", err)
	}
	return exists == c.Exists, nil
}

// creator reads the author of a post or comment in forum seriesID as the
// feed shows them, with the expert flag of their membership of the forum
// (query/feed reads it the same way: keep them together).
func (s store) creator(ctx context.Context, userID, seriesID uuid.UUID) (Creator, error) {
	c := Creator{UserID: userID}
	err := s.db.QueryRow(ctx, `SELECT u.first_name, u.last_name, u.avatar,
		EXISTS (SELECT 1 FROM series_memberships sm JOIN profiles p ON p.id = sm.profile_id
		        WHERE p.user_id = u.id AND sm.series_id = $2::uuid AND sm.is_expert AND sm.status = 'active')
		FROM users u WHERE u.id = $1::uuid`, userID.String(), seriesID.String()).
		Scan(&c.FirstName, &c.LastName, &c.Avatar, &c.IsExpert)
	if err != nil {
		return c, fmt.Errorf("realtime: creator: %w", err)
	}
	return c, nil
}

// reactions counts the reactions on a post (replyID nil) or on one of its
// comments or replies.
func (s store) reactions(ctx context.Context, threadID uuid.UUID, replyID *uuid.UUID) (Reactions, error) {
	var r Reactions
	var reply *string
	if replyID != nil {
		id := replyID.String()
		reply = &id
	}
	rows, err := s.db.Query(ctx, `SELECT kind, count(*) FROM reactions
		WHERE thread_id = $1::uuid AND reply_id IS NOT DISTINCT FROM $2::uuid GROUP BY kind`, threadID.String(), reply)
	if err != nil {
		return r, fmt.Errorf("realtime: reactions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var kind string
		var n int
		if err := rows.Scan(&kind, &n); err != nil {
			return r, fmt.Errorf("realtime: reactions: %w", err)
		}
		r.Add(kind, n)
	}
	return r, rows.Err()
}

// threadPlace is the channel and forum of a post.
func (s store) threadPlace(ctx context.Context, threadID uuid.UUID) (channelID, seriesID uuid.UUID, err error) {
	var ch, se string
	if err := s.db.QueryRow(ctx, `SELECT channel_id::text, series_id::text FROM threads WHERE id = $1::uuid`, threadID.String()).Scan(&ch, &se); err != nil {
		return channelID, seriesID, fmt.Errorf("realtime: thread: %w", err)
	}
	if channelID, err = uuid.Parse(ch); err != nil {
		return channelID, seriesID, err
	}
	seriesID, err = uuid.Parse(se)
	return channelID, seriesID, err
}

// liveSessions returns those of the sessions that are neither revoked nor
// expired.
func (s store) liveSessions(ctx context.Context, sessions []uuid.UUID) (map[uuid.UUID]bool, error) {
	us, err := scanIDs(s.db.Query(ctx, `SELECT id::text FROM sessions
		WHERE id = ANY($1::uuid[]) AND revoked_on IS NULL AND expires_on > now()`, ids(sessions)))
	if err != nil {
		return nil, fmt.Errorf("realtime: sessions: %w", err)
	}
	live := make(map[uuid.UUID]bool, len(us))
	for _, u := range us {
		live[u] = true
	}
	return live, nil
}

// beat records that node is alive. It reports whether the node's row had
// to be made: at start, or after another node swept it as stale (a long
// pause), which took its presence rows with it.
func (s store) beat(ctx context.Context, node string) (made bool, err error) {
	err = s.db.QueryRow(ctx, `INSERT INTO presence_nodes (node_id, beat_on) VALUES ($1, now())
		ON CONFLICT (node_id) DO UPDATE SET beat_on = now() RETURNING xmax = 0`, node).Scan(&made)
	if err != nil {
		return false, fmt.Errorf("realtime: presence beat: %w", err)
	}
	return made, nil
}

// sweep deletes the nodes not heard from for staleAfter (killed ones) and,
// through the cascade and the trigger, their members' presence.
func (s store) sweep(ctx context.Context, node string, staleAfter time.Duration) error {
	_, err := s.db.Exec(ctx, `DELETE FROM presence_nodes
		WHERE node_id <> $1 AND beat_on < now() - make_interval(secs => $2)`, node, staleAfter.Seconds())
	if err != nil {
		return fmt.Errorf("realtime: presence sweep: %w", err)
	}
	return nil
}

// leave deletes node and its presence rows (a clean shutdown).
func (s store) leave(ctx context.Context, node string) error {
	if _, err := s.db.Exec(ctx, `DELETE FROM presence_nodes WHERE node_id = $1`, node); err != nil {
		return fmt.Errorf("realtime: presence leave: %w", err)
	}
	return nil
}

func (s store) setPresent(ctx context.Context, node string, user uuid.UUID, present bool) error {
	var err error
	if present {
		_, err = s.db.Exec(ctx, `INSERT INTO presence (node_id, user_id) VALUES ($1, $2::uuid) ON CONFLICT DO NOTHING`, node, user.String())
	} else {
		_, err = s.db.Exec(ctx, `DELETE FROM presence WHERE node_id = $1 AND user_id = $2::uuid`, node, user.String())
	}
	if err != nil {
		return fmt.Errorf("realtime: presence: %w", err)
	}
	return nil
}

// StaleAfter is how long a node may go without beating before its presence
// is swept and no longer counts.
const StaleAfter = time.Minute

// Online returns which of users have the app open on a live node: the
// query later features (the peers list) ask.
func Online(ctx context.Context, db DB, users []uuid.UUID) (map[uuid.UUID]bool, error) {
	us, err := scanIDs(db.Query(ctx, `SELECT DISTINCT p.user_id::text FROM presence p
		JOIN presence_nodes n ON n.node_id = p.node_id
		WHERE p.user_id = ANY($1::uuid[]) AND n.beat_on > now() - make_interval(secs => $2)`,
		ids(users), StaleAfter.Seconds()))
	if err != nil {
		return nil, fmt.Errorf("realtime: online: %w", err)
	}
	out := make(map[uuid.UUID]bool, len(us))
	for _, u := range us {
		out[u] = true
	}
	return out, nil
}
