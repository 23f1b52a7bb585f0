package realtime

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/access"
)

// DB is what the projection needs of Postgres (a *pgxpool.Pool).
type DB interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// store holds the realtime SQL: the read model's "who may read this",
// asked only about connected members.
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
