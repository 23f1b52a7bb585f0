// Package meetup is the write side of Meet Ups (spec 002 §4 "Meet Up
// registration", "Meet Up lifecycle", "Breakout rooms", §5 "Meet Up form",
// §6): scheduling one with its post, editing it, registrations with the
// waitlist, invitees' answers and invitations, breakouts, ending it, the
// LiveKit join tokens and LiveKit's webhook. Each use case is one
// transaction; a Meet Up's changes that race (seats) lock its row.
package meetup

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/adapters/sfu"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
	"agora/internal/rules/plaintext"
)

// Service runs the Meet Up commands.
type Service struct {
	db *pgxpool.Pool
	// rooms is the LiveKit server; nil when none is configured (agora api
	// without LIVEKIT_URL): Meet Ups are scheduled, but not joined.
	rooms *sfu.Client
	log   *slog.Logger
	now   func() time.Time
}

// New builds the service over rooms, the LiveKit server (nil: none); log
// receives what fails after a change is committed (closing rooms).
func New(d *db.DB, rooms *sfu.Client, log *slog.Logger) (*Service, error) {
	if d == nil || d.Pool == nil || log == nil {
		return nil, errors.New("meeting.New: nil dependency")
	}
	return &Service{db: d.Pool, rooms: rooms, log: log, now: time.Now}, nil
}

// Errors of the Meet Up commands.
var (
	// ErrEnded is a change to a Meet Up that has ended (access's rule).
	ErrEnded = access.ErrMeetingEnded
	// ErrBreakoutsClosed is a move into a breakout room while they are closed.
	ErrBreakoutsClosed = apperr.New(apperr.Conflict, "meetingBreakoutsClosed", "the breakout rooms are not open")
)

// Limits of the Meet Up form (spec 002 §5, §9).
const (
	maxName          = 75
	maxAgenda        = 250
	maxSeats         = 50
	maxBreakouts     = 10
	maxBreakoutName  = 50
	maxInvitees      = 500
	startTolerance   = time.Minute
	roleMember       = "member"
	roleModerator    = "moderator"
	responseReg      = "registered"
	responseWaitlist = "waitlisted"
)

// durations are the lengths a Meet Up may have, in minutes.
var durations = []int{15, 30, 45, 60, 90, 120}

// Form is the Meet Up form (MeetingForm) as the client sends it.
type Form struct {
	Name      string            `json:"name"`
	Agenda    string            `json:"agenda"`
	StartTime string            `json:"startTime"`
	Duration  int               `json:"duration"`
	Open      bool              `json:"open"`
	SeatCount *int              `json:"seatCount"`
	Invitees  map[string]string `json:"invitees"`
	Breakouts []string          `json:"breakouts"`
}

// checked is a form that keeps every rule.
type checked struct {
	name, agenda string
	start        time.Time
	duration     int32
	seats        *int32
	invitees     map[uuid.UUID]string
	breakouts    []string
}

// check validates the form of a Meet Up of forum seriesID made by creator,
// adding what breaks a rule to bad.
func (s *Service) check(ctx context.Context, q pgx.Tx, f Form, creator, seriesID uuid.UUID, bad apperr.Fields) (checked, error) {
	var c checked
	c.name = plaintext.Required(bad, "name", f.Name, maxName)
	c.agenda = plaintext.Text(bad, "agenda", f.Agenda, 0, maxAgenda)
	start, err := time.Parse(time.RFC3339Nano, f.StartTime)
	switch {
	case err != nil:
		bad.Add("startTime", "must be an RFC 3339 timestamp")
	case start.Before(s.now().Add(-startTolerance)):
		bad.Add("startTime", "must not be in the past")
	}
	c.start = start.UTC()
	if !slices.Contains(durations, f.Duration) {
		bad.Add("duration", "must be 15, 30, 45, 60, 90 or 120")
	}
	c.duration = int32(f.Duration)
	switch {
	case f.Open && f.SeatCount == nil:
		bad.Add("seatCount", "must set seat count if the Meet Up is open")
	case f.Open && (*f.SeatCount < 1 || *f.SeatCount > maxSeats):
		bad.Add("seatCount", "must be 1 to "+strconv.Itoa(maxSeats))
	case !f.Open && f.SeatCount != nil:
		bad.Add("seatCount", "must be null for a private Meet Up")
	case f.Open:
		n := int32(*f.SeatCount)
		c.seats = &n
	}
	if len(f.Breakouts) > maxBreakouts {
		bad.Add("breakouts", "must be at most "+strconv.Itoa(maxBreakouts)+" rooms")
	}
	seen := map[string]bool{}
	for _, b := range f.Breakouts {
		name := plaintext.Trim(b)
		switch {
		case name == "" || utf8.RuneCountInString(name) > maxBreakoutName:
			bad.Add("breakouts", "each room name must be 1 to "+strconv.Itoa(maxBreakoutName)+" characters")
		case !plaintext.Clean(name):
			bad.Add("breakouts", plaintext.Unclean)
		case seen[name]:
			bad.Add("breakouts", "room names must be unique")
		}
		seen[name] = true
		c.breakouts = append(c.breakouts, name)
	}
	if c.breakouts == nil {
		c.breakouts = []string{}
	}
	if len(f.Invitees) == 0 && !f.Open {
		bad.Add("invitees", "At least one person must be invited, unless Open Registration is allowed")
	}
	c.invitees, err = checkInvitees(ctx, q, f.Invitees, creator, seriesID, bad)
	return c, err
}

// checkInvitees reads an invitees map (userId → role): every key someone
// who reads the forum, not the creator, every value member or moderator.
func checkInvitees(ctx context.Context, q pgx.Tx, in map[string]string, creator, seriesID uuid.UUID, bad apperr.Fields) (map[uuid.UUID]string, error) {
	out := map[uuid.UUID]string{}
	if len(in) > maxInvitees {
		bad.Add("invitees", "must be at most "+strconv.Itoa(maxInvitees)+" people")
		return out, nil
	}
	for key, role := range in {
		id, err := uuid.Parse(key)
		switch {
		case err != nil:
			bad.Add("invitees", "every key must be a user id")
			continue
		case id == creator:
			bad.Add("invitees", "the creator is not an invitee")
			continue
		case role != roleMember && role != roleModerator:
			bad.Add("invitees", "every role must be member or moderator")
			continue
		}
		reads, err := readsForum(ctx, q, id, seriesID)
		if err != nil {
			return nil, err
		}
		if !reads {
			bad.Add("invitees", "every invitee must be a member of the forum")
			continue
		}
		out[id] = role
	}
	return out, nil
}

// readsForum reports whether user (anyone, not the caller) reads the forum.
func readsForum(ctx context.Context, q pgx.Tx, user, seriesID uuid.UUID) (bool, error) {
	u := table.Users
	var role string
	err := db.QueryRow(ctx, q, SELECT(u.Role).FROM(u).WHERE(u.ID.EQ(UUID(user)))).Scan(&role)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("meeting: invitee: %w", err)
	}
	f, err := access.InForum(ctx, q, user, auth.Role(role), seriesID)
	if err != nil {
		return false, err
	}
	return f.Read(), nil
}

// lock reads the Meet Up roomID for the actor, who must read its forum,
// and locks its row until tx ends: the changes of one Meet Up (its seats
// above all) queue up. Unknown, and unreadable, is 404.
func lock(ctx context.Context, tx pgx.Tx, a auth.Caller, roomID uuid.UUID) (model.Meetings, access.Forum, error) {
	return find(ctx, tx, a, roomID, true)
}

// find is lock, locking the row only when forUpdate.
func find(ctx context.Context, tx db.Querier, a auth.Caller, roomID uuid.UUID, forUpdate bool) (model.Meetings, access.Forum, error) {
	m := table.Meetings
	stmt := SELECT(m.AllColumns).FROM(m).WHERE(m.ID.EQ(UUID(roomID)))
	if forUpdate {
		stmt = stmt.FOR(UPDATE())
	}
	row, err := db.One[model.Meetings](ctx, tx, stmt)
	if errors.Is(err, pgx.ErrNoRows) {
		return row, access.Forum{}, apperr.ErrNotFound
	}
	if err != nil {
		return row, access.Forum{}, fmt.Errorf("meeting: lock: %w", err)
	}
	f, err := access.ReadForum(ctx, tx, a.UserID, a.Role, row.SeriesID)
	return row, f, err
}

// lockPost is lock of the Meet Up of post threadID.
func lockPost(ctx context.Context, tx pgx.Tx, a auth.Caller, threadID uuid.UUID) (model.Meetings, access.Forum, error) {
	m := table.Meetings
	var id uuid.UUID
	err := db.QueryRow(ctx, tx, SELECT(m.ID).FROM(m).WHERE(m.ThreadID.EQ(UUID(threadID)))).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return model.Meetings{}, access.Forum{}, apperr.ErrNotFound
	}
	if err != nil {
		return model.Meetings{}, access.Forum{}, fmt.Errorf("meeting: of post: %w", err)
	}
	return lock(ctx, tx, a, id)
}

// seatOf is user's row of the Meet Up, nil when they have none.
func seatOf(ctx context.Context, q db.Querier, roomID, user uuid.UUID) (*model.MeetingInvitees, error) {
	mi := table.MeetingInvitees
	row, err := db.One[model.MeetingInvitees](ctx, q, SELECT(mi.AllColumns).FROM(mi).
		WHERE(mi.MeetingID.EQ(UUID(roomID)).AND(mi.UserID.EQ(UUID(user)))))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("meeting: seat: %w", err)
	}
	return &row, nil
}

// roleIn is what user joins the locked Meet Up m as (access.MeetingRole).
func roleIn(ctx context.Context, q db.Querier, m model.Meetings, user uuid.UUID) (string, error) {
	seat, err := seatOf(ctx, q, m.ID, user)
	if err != nil || seat == nil {
		return access.MeetingRole(m.CreatorID, user, nil), err
	}
	return access.MeetingRole(m.CreatorID, user, &access.MeetingSeat{Role: seat.Role, Response: seat.Response}), nil
}

// promote gives the free seats of the locked open Meet Up m to the first
// waitlisted members, in the order they asked (responded_on). Each promoted
// row's change is what notifies its member (meetup-seat, through the
// notifications projection).
func promote(ctx context.Context, tx pgx.Tx, m model.Meetings) error {
	if m.SeatCount == nil {
		return nil
	}
	mi := table.MeetingInvitees
	registered, err := db.Count(ctx, tx, mi, mi.MeetingID.EQ(UUID(m.ID)).AND(mi.Response.EQ(String(responseReg))))
	if err != nil {
		return fmt.Errorf("meeting: registered: %w", err)
	}
	free := int(*m.SeatCount) - registered
	if free <= 0 {
		return nil
	}
	first := SELECT(mi.UserID).FROM(mi).
		WHERE(mi.MeetingID.EQ(UUID(m.ID)).AND(mi.Response.EQ(String(responseWaitlist)))).
		ORDER_BY(mi.RespondedOn, mi.UserID).LIMIT(int64(free))
	_, err = db.Exec(ctx, tx, mi.UPDATE(mi.Response).SET(String(responseReg)).
		WHERE(mi.MeetingID.EQ(UUID(m.ID)).AND(mi.UserID.IN(first))))
	if err != nil {
		return fmt.Errorf("meeting: promote: %w", err)
	}
	return nil
}

// over reports whether the Meet Up m has ended by now: ended for all, or
// past its scheduled end (access.MeetingEndedOn) even before the sweep
// wrote it. What changes a Meet Up, or joins it, is refused then.
func (s *Service) over(m model.Meetings) bool {
	return access.MeetingEndedOn(m.EndedOn, m.StartTime, int(m.Duration), s.now()) != nil
}

// touch marks the Meet Up changed, so that its row's change (and the
// post's thread.updated) tells its readers.
func touch(ctx context.Context, tx pgx.Tx, roomID uuid.UUID, now time.Time) error {
	m := table.Meetings
	_, err := db.Exec(ctx, tx, m.UPDATE(m.UpdatedOn).SET(TimestampzT(now)).WHERE(m.ID.EQ(UUID(roomID))))
	if err != nil {
		return fmt.Errorf("meeting: touch: %w", err)
	}
	return nil
}

func newID() uuid.UUID {
	id, err := uuid.NewV7()
	if err != nil {
		panic(err) // only when the system's random source fails
	}
	return id
}
