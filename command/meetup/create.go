package meetup

import (
	"context"
	"errors"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
	"agora/internal/rules/message"
)

// Create is POST /series/{seriesId}/meetings.
type Create struct {
	SeriesID uuid.UUID
	Actor    auth.Caller
	Form
}

// Created is the new Meet Up and its post.
type Created struct {
	RoomID, PostID uuid.UUID
}

// Create schedules a Meet Up: its post in the forum's main channel, its
// row and its invitees, in one transaction. A private Meet Up is for a
// reader of the forum; an open one for those who administer it
// (canDoOpenMeetups).
func (s *Service) Create(ctx context.Context, in Create) (Created, error) {
	out := Created{RoomID: newID(), PostID: newID()}
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		f, err := access.ReadForum(ctx, tx, in.Actor.UserID, in.Actor.Role, in.SeriesID)
		if err != nil {
			return err
		}
		if in.Open && !f.Admin {
			return apperr.ErrForbidden
		}
		bad := apperr.Fields{}
		c, err := s.check(ctx, tx, in.Form, in.Actor.UserID, in.SeriesID, bad)
		if err != nil {
			return err
		}
		if err := bad.Err(); err != nil {
			return err
		}
		ch := table.Channels
		var channelID uuid.UUID
		err = db.QueryRow(ctx, tx, SELECT(ch.ID).FROM(ch).WHERE(ch.SeriesID.EQ(UUID(in.SeriesID)).AND(ch.Kind.EQ(String("main"))))).Scan(&channelID)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("meeting: main channel: %w", err)
		}
		now, err := message.PostTime(ctx, tx, channelID, s.now().UTC().Truncate(1e6))
		if err != nil {
			return err
		}
		t := table.Threads
		if _, err := db.Exec(ctx, tx, t.INSERT(t.ID, t.ChannelID, t.SeriesID, t.CreatorID, t.CreatorAs, t.Type, t.Raw,
			t.Mentions, t.Hashtags, t.CreatedOn, t.UpdatedOn).
			MODEL(model.Threads{ID: out.PostID, ChannelID: channelID, SeriesID: in.SeriesID, CreatorID: in.Actor.UserID,
				CreatorAs: "author", Type: "post", Mentions: []string{}, Hashtags: []string{}, CreatedOn: now, UpdatedOn: now})); err != nil {
			return fmt.Errorf("meeting: post: %w", err)
		}
		m := table.Meetings
		if _, err := db.Exec(ctx, tx, m.INSERT(m.ID, m.ThreadID, m.SeriesID, m.CreatorID, m.Name, m.Agenda, m.StartTime, m.Duration,
			m.Open, m.SeatCount, m.Breakouts, m.CreatedOn, m.UpdatedOn).
			MODEL(model.Meetings{ID: out.RoomID, ThreadID: out.PostID, SeriesID: in.SeriesID, CreatorID: in.Actor.UserID,
				Name: c.name, Agenda: c.agenda, StartTime: c.start, Duration: c.duration, Open: in.Open, SeatCount: c.seats,
				Breakouts: c.breakouts, CreatedOn: now, UpdatedOn: now})); err != nil {
			return fmt.Errorf("meeting: create: %w", err)
		}
		return addInvitees(ctx, tx, out.RoomID, c.invitees)
	})
	return out, err
}

// addInvitees inserts invitees (userId → role) who have no row yet, and
// sets the role of those who have one.
func addInvitees(ctx context.Context, tx pgx.Tx, roomID uuid.UUID, invitees map[uuid.UUID]string) error {
	if len(invitees) == 0 {
		return nil
	}
	mi := table.MeetingInvitees
	stmt := mi.INSERT(mi.MeetingID, mi.UserID, mi.Role)
	for _, id := range sortedIDs(invitees) {
		stmt = stmt.VALUES(UUID(roomID), UUID(id), String(invitees[id]))
	}
	if _, err := db.Exec(ctx, tx, stmt.ON_CONFLICT(mi.MeetingID, mi.UserID).DO_UPDATE(SET(mi.Role.SET(mi.EXCLUDED.Role)))); err != nil {
		return fmt.Errorf("meeting: invitees: %w", err)
	}
	return nil
}
