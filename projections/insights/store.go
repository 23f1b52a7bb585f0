package insights

import (
	"context"
	"fmt"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/ext"
	// jet by name: its dot import would clash with this package's Projection.
	pg "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// resolve looks up what the batch's rows do not say, first in the
// warehouse (which keeps it after Postgres has deleted the rows), then in
// Postgres: the forum of each post and AI search, the community of each
// forum, the user of each profile, and the forums touched, as they are.
func (p *Projection) resolve(ctx context.Context, b *batch) error {
	if err := p.resolveParents(ctx, b); err != nil {
		return err
	}
	for _, pa := range b.parents {
		b.wantCommunity[pa.series] = true
	}
	if err := p.resolveForums(ctx, b); err != nil {
		return err
	}
	if err := p.resolveCommunities(ctx, b); err != nil {
		return err
	}
	return p.resolveUsers(ctx, b)
}

// missing lists the wanted ids that have is false for.
func missing(want map[uuid.UUID]bool, has func(uuid.UUID) bool) []uuid.UUID {
	var out []uuid.UUID
	for id := range want {
		if !has(id) {
			out = append(out, id)
		}
	}
	return out
}

// in is ids as a bound IN list: ('…', '…').
func in(ids []uuid.UUID) clickhouse.GroupSet {
	vs := make([]any, len(ids))
	for i, id := range ids {
		vs[i] = id.String()
	}
	return clickhouse.GroupSet{Value: vs}
}

func (p *Projection) resolveParents(ctx context.Context, b *batch) error {
	// The batch's own posts and searches are kept for the batches to come;
	// what the batch answers is most often among those seen last.
	for id, pa := range b.newParents {
		p.recent.put(id, pa)
	}
	ids := missing(b.wantParent, func(id uuid.UUID) bool {
		if _, ok := b.parents[id]; ok {
			return true
		}
		pa, ok := p.recent.get(id)
		if ok {
			b.parents[id] = pa
		}
		return ok
	})
	if len(ids) == 0 {
		return nil
	}
	defer func() {
		for _, id := range ids {
			if pa, ok := b.parents[id]; ok {
				p.recent.put(id, pa)
			}
		}
	}()
	rows, err := p.ch.Query(ctx, "SELECT object_id, any(series_id), any(channel_id), any(actor_id) FROM parents WHERE object_id IN ? GROUP BY object_id", in(ids))
	if err != nil {
		return fmt.Errorf("insights: read parents: %w", err)
	}
	for rows.Next() {
		var id uuid.UUID
		var pa parent
		if err := rows.Scan(&id, &pa.series, &pa.channel, &pa.actor); err != nil {
			rows.Close()
			return fmt.Errorf("insights: read parents: %w", err)
		}
		b.parents[id] = pa
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("insights: read parents: %w", err)
	}
	ids = missing(b.wantParent, func(id uuid.UUID) bool { _, ok := b.parents[id]; return ok })
	if len(ids) == 0 {
		return nil
	}
	// Not projected yet (its change is in another partition, or later):
	// Postgres has it unless it was deleted since, and then so were the
	// rows that asked, whose deletions follow in the stream.
	t, ai, m := table.Threads, table.AiSearches, table.Meetings
	pr, err := db.Query(ctx, p.db, pg.UNION_ALL(
		pg.SELECT(t.ID, t.SeriesID, t.ChannelID, pg.CASE().WHEN(t.CreatorAs.EQ(pg.String("anonymous"))).THEN(pg.NULL).ELSE(t.CreatorID)).
			FROM(t).WHERE(db.Any(t.ID, ids)),
		pg.SELECT(ai.ID, ai.SeriesID, ai.ChannelID, ai.UserID).FROM(ai).WHERE(db.Any(ai.ID, ids)),
		pg.SELECT(m.ID, m.SeriesID, pg.UUID(uuid.Nil), m.CreatorID).FROM(m).WHERE(db.Any(m.ID, ids))))
	if err != nil {
		return fmt.Errorf("insights: read parents: %w", err)
	}
	defer pr.Close()
	for pr.Next() {
		var id uuid.UUID
		var pa parent
		var actor *uuid.UUID
		if err := pr.Scan(&id, &pa.series, &pa.channel, &actor); err != nil {
			return fmt.Errorf("insights: read parents: %w", err)
		}
		if actor != nil {
			pa.actor = *actor
		}
		b.learnParent(id, pa)
	}
	if err := pr.Err(); err != nil {
		return fmt.Errorf("insights: read parents: %w", err)
	}
	return nil
}

// resolveForums reads the forums that series or channel changes touched
// as Postgres has them now: a forum's name, community and channels come
// from several tables whose changes arrive in any order, so the row is
// read whole rather than pieced together. A forum Postgres no longer has
// is written inactive, from its series row when the batch has it.
func (p *Projection) resolveForums(ctx context.Context, b *batch) error {
	if len(b.forums) == 0 {
		return nil
	}
	ids := make([]uuid.UUID, 0, len(b.forums))
	for id := range b.forums {
		ids = append(ids, id)
	}
	s, c := table.Series.AS("s"), table.Channels
	channel := func(kind string) pg.Projection {
		return pg.SELECT(c.ID).FROM(c).WHERE(c.SeriesID.EQ(s.ID).AND(c.Kind.EQ(pg.String(kind))))
	}
	rows, err := db.Query(ctx, p.db, pg.SELECT(s.ID, s.CommunityID, s.Name, s.CreatedOn, channel("main"), channel("admin")).
		FROM(s).WHERE(db.Any(s.ID, ids)))
	if err != nil {
		return fmt.Errorf("insights: read forums: %w", err)
	}
	defer rows.Close()
	found := map[uuid.UUID]bool{}
	for rows.Next() {
		var id uuid.UUID
		var st forumState
		var main, admin *uuid.UUID
		if err := rows.Scan(&id, &st.community, &st.name, &st.created, &main, &admin); err != nil {
			return fmt.Errorf("insights: read forums: %w", err)
		}
		if main != nil {
			st.main = *main
		}
		if admin != nil {
			st.admin = *admin
		}
		found[id] = true
		b.community[id] = st.community
		b.forumRows = append(b.forumRows, forumRow{series: id, state: st, active: true, ver: b.forums[id]})
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("insights: read forums: %w", err)
	}
	for id, v := range b.forums {
		r, ok := b.forumImages[id]
		if found[id] || !ok {
			continue // a channel of a deleted forum: the forum's own deletion says it
		}
		var s struct {
			CommunityID uuid.UUID `cdc:"community_id"`
			Name        string    `cdc:"name"`
			CreatedOn   time.Time `cdc:"created_on"`
		}
		if err := r.Scan(&s); err != nil {
			return fmt.Errorf("insights: series: %w", err)
		}
		b.forumRows = append(b.forumRows, forumRow{series: id, state: forumState{community: s.CommunityID, name: s.Name, created: s.CreatedOn}, ver: v})
	}
	return nil
}

func (p *Projection) resolveCommunities(ctx context.Context, b *batch) error {
	ids := missing(b.wantCommunity, func(id uuid.UUID) bool { _, ok := b.community[id]; return ok })
	if len(ids) == 0 {
		return nil
	}
	rows, err := p.ch.Query(ctx, "SELECT series_id, argMax(community_id, version) FROM forums WHERE series_id IN ? GROUP BY series_id", in(ids))
	if err != nil {
		return fmt.Errorf("insights: read forums: %w", err)
	}
	for rows.Next() {
		var id, c uuid.UUID
		if err := rows.Scan(&id, &c); err != nil {
			rows.Close()
			return fmt.Errorf("insights: read forums: %w", err)
		}
		b.community[id] = c
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("insights: read forums: %w", err)
	}
	ids = missing(b.wantCommunity, func(id uuid.UUID) bool { _, ok := b.community[id]; return ok })
	if len(ids) == 0 {
		return nil
	}
	s := table.Series
	pr, err := db.Query(ctx, p.db, pg.SELECT(s.ID, s.CommunityID).FROM(s).WHERE(db.Any(s.ID, ids)))
	if err != nil {
		return fmt.Errorf("insights: read forums: %w", err)
	}
	defer pr.Close()
	for pr.Next() {
		var id, c uuid.UUID
		if err := pr.Scan(&id, &c); err != nil {
			return fmt.Errorf("insights: read forums: %w", err)
		}
		b.community[id] = c
	}
	// A forum deleted before its facts are projected keeps the nil
	// community: its facts are all on their way to inactive.
	return pr.Err()
}

// resolveUsers reads the users of the profiles of membership changes: a
// profile gets its user once the invited person registers (which also
// activates their memberships, a change that comes next).
func (p *Projection) resolveUsers(ctx context.Context, b *batch) error {
	if len(b.wantUser) == 0 {
		return nil
	}
	ids := missing(b.wantUser, func(uuid.UUID) bool { return false })
	pf := table.Profiles
	rows, err := db.Query(ctx, p.db, pg.SELECT(pf.ID, pf.UserID).FROM(pf).WHERE(db.Any(pf.ID, ids).AND(pf.UserID.IS_NOT_NULL())))
	if err != nil {
		return fmt.Errorf("insights: read profiles: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, u uuid.UUID
		if err := rows.Scan(&id, &u); err != nil {
			return fmt.Errorf("insights: read profiles: %w", err)
		}
		b.users[id] = u
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("insights: read profiles: %w", err)
	}
	// A deleted profile's memberships keep the user the warehouse knew.
	ids = missing(b.wantUser, func(id uuid.UUID) bool { _, ok := b.users[id]; return ok })
	if len(ids) == 0 {
		return nil
	}
	cr, err := p.ch.Query(ctx, "SELECT profile_id, any(user_id) FROM members WHERE profile_id IN ? AND user_id != toUUID('00000000-0000-0000-0000-000000000000') GROUP BY profile_id", in(ids))
	if err != nil {
		return fmt.Errorf("insights: read members: %w", err)
	}
	defer cr.Close()
	for cr.Next() {
		var id, u uuid.UUID
		if err := cr.Scan(&id, &u); err != nil {
			return fmt.Errorf("insights: read members: %w", err)
		}
		b.users[id] = u
	}
	return cr.Err()
}

// write inserts the batch's rows, one INSERT per table, parents first (a
// fact is never written before the parent its later changes will need),
// then recounts the daily rows of the days its facts touched. The
// watermark goes last: it claims what is written.
func (p *Projection) write(ctx context.Context, b *batch) error {
	if err := p.insert(ctx, "parents (object_id, series_id, channel_id, actor_id)", len(b.newParents), func(add func(...any) error) error {
		for id, pa := range b.newParents {
			if err := add(id, pa.series, pa.channel, pa.actor); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if err := p.insert(ctx, "forums (series_id, community_id, name, main_channel_id, admin_channel_id, created_ms, active, version)", len(b.forumRows), func(add func(...any) error) error {
		for _, f := range b.forumRows {
			if err := add(f.series, f.state.community, f.state.name, f.state.main, f.state.admin, ms(f.state.created), flag(f.active), f.ver); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if err := p.insert(ctx, "members (series_id, profile_id, user_id, role, status, expert, assigned_ms, active, version)", len(b.members), func(add func(...any) error) error {
		for _, m := range b.members {
			if err := add(m.SeriesID, m.ProfileID, m.user, m.Role, m.Status, flag(m.IsExpert), ms(m.AssignedOn), flag(m.active), m.version); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	for table, columns := range map[string]string{
		"organizations": "organizations (organization_id, name, created_ms, active, version)",
		"communities":   "communities (community_id, organization_id, name, created_ms, active, version)",
	} {
		var rows []dimensionRow
		for _, d := range b.dimensions {
			if d.table == table {
				rows = append(rows, d)
			}
		}
		if err := p.insert(ctx, columns, len(rows), func(add func(...any) error) error {
			for _, d := range rows {
				vs := []any{d.id, d.organization, d.name, ms(d.created), flag(d.active), d.version}
				if table == "organizations" {
					vs = append(vs[:1], vs[2:]...)
				}
				if err := add(vs...); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return err
		}
	}
	if err := p.insert(ctx, "facts (series_id, kind, day, object_id, community_id, channel_id, post_id, actor_id, anonymous, occurred_ms, n, detail, active, version)", len(b.facts), func(add func(...any) error) error {
		for _, k := range b.facts {
			f := k.Fact
			if err := add(f.SeriesID, f.Kind, f.Day(), f.ObjectID, f.CommunityID, f.ChannelID, f.PostID, f.ActorID,
				flag(f.Anonymous), ms(f.Occurred), f.N, f.Detail, flag(f.Active), f.Version); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	p.factRows.Add(int64(len(b.facts)))
	if err := p.recount(ctx, b); err != nil {
		return err
	}
	if b.committed <= 0 {
		return nil
	}
	return p.insert(ctx, "watermark (projection, committed_ms)", 1, func(add func(...any) error) error {
		return add(Name, uint64(b.committed))
	})
}

// recountSQL recomputes the daily rows of the (forum, kind, day) groups
// of the external table groups, from facts deduplicated
// (analytics/README.md, daily). Its version is the sum of each key's
// newest fact version: it only grows as changes of the group's facts
// arrive (a key's newest version never goes back, merges keep it), and two
// reads with the same sum saw the same newest facts. So of two
// recomputations, the one that saw more wins, in whatever order batches,
// replays and projector processes write them, and a replay writes the
// very same row.
//
// The groups come as an external table, not as a literal IN list: 18.16
// takes about 45 µs to parse each literal tuple (15 ms for a batch's 300
// groups), more than the recount reads. It reads facts_by_day, the facts
// sorted by day first, where day IN (SELECT …) narrows the read to the
// days the batch touched (facts, sorted by forum first, would be read for
// their whole months: 18.16 does not narrow a read by a set of UUIDs).
const recountSQL = `INSERT INTO daily (series_id, kind, day, channel_id, objects, n, anonymous, version)
	SELECT series_id, kind, day, channel_id, sum(a), sum(a * n), sum(a * anon), sum(v)
	FROM (
		SELECT series_id, kind, day, channel_id, object_id,
		       argMax(active, version) AS a, argMax(n, version) AS n, any(anonymous) AS anon, max(version) AS v
		FROM facts_by_day
		WHERE day IN (SELECT day FROM groups) AND (series_id, kind, day) IN groups
		GROUP BY series_id, kind, day, channel_id, object_id
	)
	GROUP BY series_id, kind, day, channel_id`

// recount rewrites the daily counts of every (forum, kind, day) the
// batch's facts touched, from the facts once they are written.
func (p *Projection) recount(ctx context.Context, b *batch) error {
	if len(b.facts) == 0 {
		return nil
	}
	groups, err := ext.NewTable("groups", ext.Column("series_id", "UUID"), ext.Column("kind", "String"), ext.Column("day", "Date"))
	if err != nil {
		return fmt.Errorf("insights: recount daily: %w", err)
	}
	type group struct {
		series uuid.UUID
		kind   string
		day    time.Time
	}
	seen := map[group]bool{}
	for k := range b.facts {
		g := group{k.series, k.kind, k.day}
		if seen[g] {
			continue
		}
		seen[g] = true
		if err := groups.Append(g.series, g.kind, g.day); err != nil {
			return fmt.Errorf("insights: recount daily: %w", err)
		}
	}
	if err := p.ch.Exec(clickhouse.Context(ctx, clickhouse.WithExternalTable(groups)), recountSQL); err != nil {
		return fmt.Errorf("insights: recount daily: %w", err)
	}
	return nil
}

// insert sends one batch INSERT of n rows into table (with its column
// list: 18.16 needs it), the rows given by fill.
func (p *Projection) insert(ctx context.Context, table string, n int, fill func(add func(...any) error) error) error {
	if n == 0 {
		return nil
	}
	bt, err := p.ch.PrepareBatch(ctx, "INSERT INTO "+table)
	if err != nil {
		return fmt.Errorf("insights: insert into %s: %w", table, err)
	}
	if err := fill(bt.Append); err != nil {
		_ = bt.Abort()
		return fmt.Errorf("insights: insert into %s: %w", table, err)
	}
	if err := bt.Send(); err != nil {
		return fmt.Errorf("insights: insert into %s: %w", table, err)
	}
	return nil
}

func ms(t time.Time) uint64 {
	if t.IsZero() || t.Before(time.Unix(0, 0)) {
		return 0
	}
	return uint64(t.UnixMilli())
}

func flag(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
