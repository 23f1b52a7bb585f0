package realtime

import (
	"context"
	"fmt"
	"slices"

	// jet by name: its dot import would clash with this package's Projection.
	pg "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// DB is what the projection needs of Postgres (a *pgxpool.Pool).
type DB = db.Querier

// store holds the realtime reads: the read model's "who may read this",
// asked only about connected members.
type store struct{ db DB }

// audienceStmt selects, among the candidates, the members of audience a,
// or is nil for an unknown kind. Who may read what is internal/rules/access's
// rules, the ones the reads apply.
func audienceStmt(a Audience, candidates []uuid.UUID) pg.SelectStatement {
	about := pg.UUID(a.ID)
	switch a.Kind {
	case ReadersOfUser:
		v := table.Users.AS("v")
		return pg.SELECT(v.ID).FROM(v).
			WHERE(db.Any(v.ID, candidates).AND(access.PersonReader(about, v.ID, v.Role.EQ(pg.String("super")))))
	case PeersOfUser:
		v := table.Users.AS("v")
		return pg.SELECT(v.ID).FROM(v).
			WHERE(db.Any(v.ID, candidates).AND(v.ID.NOT_EQ(about)).AND(v.ID.IN(access.PeersOf(about))))
	case CommunityMembers:
		m, p := table.CommunityMemberships.AS("m"), table.Profiles.AS("p")
		return pg.SELECT(p.UserID).DISTINCT().FROM(m.INNER_JOIN(p, p.ID.EQ(m.ProfileID))).
			WHERE(m.CommunityID.EQ(about).AND(m.Status.EQ(pg.String("active"))).AND(db.Any(p.UserID, candidates)))
	case SeriesMembers:
		m, p := table.SeriesMemberships.AS("m"), table.Profiles.AS("p")
		return pg.SELECT(p.UserID).DISTINCT().FROM(m.INNER_JOIN(p, p.ID.EQ(m.ProfileID))).
			WHERE(m.SeriesID.EQ(about).AND(m.Status.EQ(pg.String("active"))).AND(db.Any(p.UserID, candidates)))
	case OrganizationAdmins:
		v := table.Users.AS("v")
		return pg.SELECT(v.ID).FROM(v).
			WHERE(db.Any(v.ID, candidates).AND(access.OrganizationAdmin(about, v.ID, v.Role.EQ(pg.String("super")))))
	case UserOfProfile:
		p := table.Profiles.AS("p")
		return pg.SELECT(p.UserID).FROM(p).WHERE(p.ID.EQ(about).AND(db.Any(p.UserID, candidates)))
	case UserOfProfileUnlessManager:
		p, v := table.Profiles.AS("p"), table.Users.AS("v")
		return pg.SELECT(v.ID).FROM(p.INNER_JOIN(v, v.ID.EQ(p.UserID))).
			WHERE(p.ID.EQ(about).AND(db.Any(v.ID, candidates)).
				AND(pg.NOT(access.OrganizationAdmin(p.OrganizationID, v.ID, v.Role.EQ(pg.String("super"))))))
	case ChannelReaders:
		return channelReaders(about, candidates)
	case OrganizationMembers:
		p := table.Profiles.AS("p")
		return pg.SELECT(p.UserID).DISTINCT().FROM(p).WHERE(p.OrganizationID.EQ(about).AND(db.Any(p.UserID, candidates)))
	case SuperUsers:
		v := table.Users.AS("v")
		return pg.SELECT(v.ID).FROM(v).WHERE(v.Role.EQ(pg.String("super")).AND(db.Any(v.ID, candidates)))
	case FormerMember:
		v := table.Users.AS("v")
		return pg.SELECT(v.ID).FROM(v).WHERE(v.ID.EQ(about).AND(v.Role.NOT_EQ(pg.String("super"))).AND(db.Any(v.ID, candidates)))
	case PrivateChannelMembers:
		v := table.Users.AS("v")
		return pg.SELECT(v.ID).FROM(v).WHERE(v.ID.IN(access.ChannelReaders(about)).AND(db.Any(v.ID, candidates)))
	case PrivateMessageMembers:
		v, m := table.Users.AS("v"), table.PrivateMessages.AS("m")
		return pg.SELECT(v.ID).FROM(v.CROSS_JOIN(m)).
			WHERE(m.ID.EQ(about).AND(v.ID.IN(access.ChannelReaders(m.ChannelID))).AND(db.Any(v.ID, candidates)))
	case MeetingAudience:
		return meetingAudience(about, candidates)
	case ForumReaders:
		return forumReaders(about, candidates)
	case ThreadReaders:
		t := table.Threads.AS("t")
		return channelReaders(pg.StringExp(pg.SELECT(t.ChannelID).FROM(t).WHERE(t.ID.EQ(about))), candidates)
	}
	return nil
}

// channelReaders selects the candidates who may read channel (an id, or
// a statement selecting one: none when the post is gone). Who reads a
// forum is internal/rules/access's rule, the one the feed's reads apply,
// in its shape for many readers at once (ForumRulesAmong), given the
// channel's kind, forum and community as values read once (scalar
// subqueries): rules over the columns of a joined row would be read again
// for every candidate.
func channelReaders(channel pg.StringExpression, candidates []uuid.UUID) pg.SelectStatement {
	v, c, f := table.Users.AS("v"), table.Channels.AS("c"), table.Series.AS("f")
	of := func(col pg.Projection) pg.StringExpression {
		return pg.StringExp(pg.SELECT(col).FROM(c.INNER_JOIN(f, f.ID.EQ(c.SeriesID))).WHERE(c.ID.EQ(channel)))
	}
	return pg.SELECT(v.ID).FROM(v).
		WHERE(db.Any(v.ID, candidates).
			AND(access.ChannelReaderAmong(of(c.Kind), of(f.ID), of(f.CommunityID), v.ID, v.Role.EQ(pg.String("super")))))
}

// communityOf is the community of forum series, read once.
func communityOf(series pg.StringExpression) pg.StringExpression {
	f := table.Series.AS("cf")
	return pg.StringExp(pg.SELECT(f.CommunityID).FROM(f).WHERE(f.ID.EQ(series)))
}

// audience returns the candidates who belong to a. TheUser needs no
// statement.
func (s store) audience(ctx context.Context, a Audience, candidates []uuid.UUID) ([]uuid.UUID, error) {
	if a.Kind == TheUser {
		if slices.Contains(candidates, a.ID) {
			return []uuid.UUID{a.ID}, nil
		}
		return nil, nil
	}
	stmt := audienceStmt(a, candidates)
	if stmt == nil {
		return nil, fmt.Errorf("realtime: unknown audience %d", a.Kind)
	}
	us, err := db.Values[uuid.UUID](ctx, s.db, stmt)
	if err != nil {
		return nil, fmt.Errorf("realtime: audience %d: %w", a.Kind, err)
	}
	return us, nil
}

// conditionTables and conditionIDs are the tables a Condition may name
// and their id columns.
var (
	conditionTables = map[string]pg.ReadableTable{
		"communities": table.Communities, "series": table.Series, "replies": table.Replies,
		"organizations": table.Organizations,
	}
	conditionIDs = map[string]pg.ColumnString{
		"communities": table.Communities.ID, "series": table.Series.ID, "replies": table.Replies.ID,
		"organizations": table.Organizations.ID,
	}
)

// holds evaluates a condition.
func (s store) holds(ctx context.Context, c Condition) (bool, error) {
	id, ok := conditionIDs[c.Table]
	if !ok {
		return false, fmt.Errorf("realtime: no condition on table %q", c.Table)
	}
	var exists bool
	if err := db.QueryRow(ctx, s.db, pg.SELECT(pg.EXISTS(pg.SELECT(id).FROM(conditionTables[c.Table]).WHERE(id.EQ(pg.UUID(c.ID)))))).Scan(&exists); err != nil {
		return false, fmt.Errorf("realtime: condition: %w", err)
	}
	return exists == c.Exists, nil
}
