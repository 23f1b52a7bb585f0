package insights

import (
	"context"
	"fmt"
	"strings"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"agora/projections"
)

var _ projections.Checked = (*Projection)(nil)

// Into is the same projection writing to the warehouse database ch (a
// scratch database that agora projector check fills from a snapshot to
// compare with this one), with a cache of its own.
func (p *Projection) Into(ch driver.Conn) *Projection {
	c := *p
	c.ch = ch
	c.recent = newRecentParents(parentsKept)
	return &c
}

// checkedSQL reads each table as the reports do (a key's newest version,
// live rows only), every column as text; the first keyColumns columns of
// a row make its key. Versions are left out: a snapshot and the stream
// version the same row differently. A fact is keyed by its object without
// its day, so that one object counted on two days shows as doubled; daily
// rows that count nothing are what a recount leaves of a day emptied.
var checkedSQL = []struct {
	table      string
	keyColumns int
	query      string
}{
	{"facts", 3, `SELECT toString(series_id), kind, toString(object_id), toString(day), toString(community_id), toString(channel_id),
		toString(post_id), toString(actor_id), toString(anonymous), toString(occurred_ms), toString(n), detail
		FROM facts FINAL WHERE active = 1`},
	{"daily", 4, `SELECT toString(series_id), kind, toString(day), toString(channel_id),
		toString(argMax(objects, version)), toString(argMax(n, version)), toString(argMax(anonymous, version))
		FROM daily GROUP BY series_id, kind, day, channel_id HAVING argMax(objects, version) > 0`},
	{"forums", 1, `SELECT toString(series_id), toString(argMax(community_id, version)), argMax(name, version),
		toString(argMax(main_channel_id, version)), toString(argMax(admin_channel_id, version)), toString(argMax(created_ms, version))
		FROM forums GROUP BY series_id HAVING argMax(active, version) = 1`},
	{"members", 2, `SELECT toString(series_id), toString(profile_id), toString(argMax(user_id, version)), argMax(role, version),
		argMax(status, version), toString(argMax(expert, version)), toString(argMax(assigned_ms, version))
		FROM members GROUP BY series_id, profile_id HAVING argMax(active, version) = 1`},
	{"organizations", 1, `SELECT toString(organization_id), argMax(name, version), toString(argMax(created_ms, version))
		FROM organizations GROUP BY organization_id HAVING argMax(active, version) = 1`},
	{"communities", 1, `SELECT toString(community_id), toString(argMax(organization_id, version)), argMax(name, version),
		toString(argMax(created_ms, version)) FROM communities GROUP BY community_id HAVING argMax(active, version) = 1`},
}

// Records lists the live rows of the tables the reports read: facts, the
// daily counts, and the forums, members, organizations and communities.
// The parents are a look-up of the projection's own and visits_daily a
// view of the facts; the facts say what both are made of.
func (p *Projection) Records(ctx context.Context, emit func(key, content string) error) error {
	for _, c := range checkedSQL {
		if err := p.records(ctx, c.table, c.keyColumns, c.query, emit); err != nil {
			return err
		}
	}
	return nil
}

func (p *Projection) records(ctx context.Context, table string, keyColumns int, query string, emit func(key, content string) error) error {
	rows, err := p.ch.Query(ctx, query)
	if err != nil {
		return fmt.Errorf("insights: read %s: %w", table, err)
	}
	defer rows.Close()
	n := len(rows.Columns())
	for rows.Next() {
		vs := make([]string, n)
		ptrs := make([]any, n)
		for i := range vs {
			ptrs[i] = &vs[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("insights: read %s: %w", table, err)
		}
		key := table + "/" + strings.Join(vs[:keyColumns], "/")
		if err := emit(key, strings.Join(vs[keyColumns:], " ")); err != nil {
			return err
		}
	}
	return rows.Err()
}
