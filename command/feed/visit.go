package feed

import (
	"context"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// Visit is POST /series/{id}/visits.
type Visit struct {
	SeriesID uuid.UUID
	Actor    auth.Caller
}

// Visit records that the caller opened the forum now and returns the time
// of their previous visit (nil on the first).
func (s *Service) Visit(ctx context.Context, in Visit) (*time.Time, error) {
	var prev *time.Time
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		f, err := access.ReadForum(ctx, tx, in.Actor.UserID, in.Actor.Role, in.SeriesID)
		if err != nil {
			return err
		}
		now := s.timestamp()
		sv := table.SeriesVisits
		err = db.QueryRow(ctx, tx, sv.INSERT(sv.SeriesID, sv.UserID, sv.VisitedOn).
			VALUES(UUID(in.SeriesID), UUID(in.Actor.UserID), TimestampzT(now)).
			ON_CONFLICT(sv.SeriesID, sv.UserID).
			DO_UPDATE(SET(sv.PreviouslyVisitedOn.SET(sv.VisitedOn), sv.VisitedOn.SET(sv.EXCLUDED.VisitedOn))).
			RETURNING(sv.PreviouslyVisitedOn)).Scan(&prev)
		if err != nil {
			return fmt.Errorf("feed: visit: %w", err)
		}
		// A visit to a forum is one to its community: GET /communities'
		// lastVisitedOn, which Home's New ribbon and its Visited filter
		// read (spec 000 §4), is the member's last visit to any of its
		// forums, to the hour: a membership row written at every opening
		// would be a change for every projection to read.
		cm, p := table.CommunityMemberships, table.Profiles
		if _, err := db.Exec(ctx, tx, cm.UPDATE(cm.LastVisitedOn).SET(TimestampzT(now)).
			WHERE(cm.CommunityID.EQ(UUID(f.CommunityID)).
				AND(cm.ProfileID.IN(SELECT(p.ID).FROM(p).WHERE(p.UserID.EQ(UUID(in.Actor.UserID))))).
				AND(cm.LastVisitedOn.IS_NULL().OR(cm.LastVisitedOn.LT(TimestampzT(now.Add(-time.Hour))))))); err != nil {
			return fmt.Errorf("feed: visit the community: %w", err)
		}
		// The log keeps every visit, for the forum's insights.
		if _, err := db.Exec(ctx, tx, table.SeriesVisitLog.INSERT(table.SeriesVisitLog.AllColumns).
			MODEL(model.SeriesVisitLog{ID: newID(), SeriesID: in.SeriesID, UserID: in.Actor.UserID, VisitedOn: now})); err != nil {
			return fmt.Errorf("feed: visit log: %w", err)
		}
		return nil
	})
	return prev, err
}
