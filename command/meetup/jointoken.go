package meetup

import (
	"context"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/adapters/sfu"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// tokenTTL is how long a join token may be used to connect: a Meet Up
// lasts at most two hours, and a reconnection within it needs no new one.
const tokenTTL = 4 * time.Hour

// ErrNoSFU is a join while no LiveKit server is configured.
var ErrNoSFU = apperr.New(apperr.Internal, "sfuUnavailable", "Meet Ups cannot be joined: no video server is configured")

// JoinToken is the LiveKit token a participant connects with.
type JoinToken struct {
	Token string `json:"token"`
	URL   string `json:"url"`
	Room  string `json:"room"`
	Role  string `json:"role"`
}

// JoinToken is POST /meetings/join-token: a token for the caller (userID
// must be theirs) to join the Meet Up's room as what they are in it, from
// the grace window before its start until it ends: ended for all, or its
// scheduled end come.
func (s *Service) JoinToken(ctx context.Context, a auth.Caller, roomID, userID uuid.UUID) (JoinToken, error) {
	if userID != a.UserID {
		return JoinToken{}, apperr.Fields{"userId": "must be the caller"}.Err()
	}
	// A join writes nothing: its reads need no transaction.
	row, err := readFor(ctx, s.db, a, roomID)
	if err != nil {
		return JoinToken{}, err
	}
	role, err := roleIn(ctx, s.db, row.Meetings, a.UserID)
	if err != nil {
		return JoinToken{}, err
	}
	if role == "" {
		return JoinToken{}, apperr.ErrForbidden
	}
	if err := access.MeetingRoomOpen(row.EndedOn, row.StartTime, int(row.Duration), s.now()); err != nil {
		return JoinToken{}, err
	}
	return s.token(row.ID.String(), a.UserID, row.name, role)
}

// token signs a token for user to join LiveKit room as role: members
// publish and subscribe; the host and moderators also administer the
// room. No one sends data messages: the chat is stored and goes through
// the API (command/chat), so nothing reaches the room around its rules.
func (s *Service) token(room string, user uuid.UUID, name, role string) (JoinToken, error) {
	if s.rooms == nil {
		return JoinToken{}, ErrNoSFU
	}
	t, err := s.rooms.Token(sfu.Grant{
		Room: room, Identity: user.String(), Name: name,
		CanPublish: true, CanSubscribe: true,
		RoomAdmin: access.MeetingRuns(role),
		TTL:       tokenTTL,
	})
	if err != nil {
		return JoinToken{}, fmt.Errorf("meeting: token: %w", err)
	}
	return JoinToken{Token: t, URL: s.rooms.PublicURL(), Room: room, Role: role}, nil
}

// participant is a Meet Up row with the name its participant shows.
type participant struct {
	model.Meetings
	name string
}

// readFor reads the Meet Up roomID for the caller like lock, without
// locking it (a join changes nothing), with the caller's name.
func readFor(ctx context.Context, tx db.Querier, a auth.Caller, roomID uuid.UUID) (participant, error) {
	row, _, err := find(ctx, tx, a, roomID, false)
	if err != nil {
		return participant{}, err
	}
	name, err := nameOf(ctx, tx, a.UserID)
	if err != nil {
		return participant{}, err
	}
	return participant{Meetings: row, name: name}, nil
}

// nameOf is the name user shows in a room.
func nameOf(ctx context.Context, q db.Querier, user uuid.UUID) (string, error) {
	u := table.Users
	var first, last string
	if err := db.QueryRow(ctx, q, SELECT(u.FirstName, u.LastName).FROM(u).WHERE(u.ID.EQ(UUID(user)))).Scan(&first, &last); err != nil {
		return "", fmt.Errorf("meeting: participant: %w", err)
	}
	return first + " " + last, nil
}
