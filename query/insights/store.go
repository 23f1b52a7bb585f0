package insights

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// Store is the warehouse as the reports read it: facts that exist now,
// deduplicated, of one forum's main channel over a period of UTC days.
type Store interface {
	// Daily counts the facts of kinds a day: how many, the sum of their n
	// (questions in a message) and how many are anonymous.
	Daily(ctx context.Context, s Scope, kinds ...string) ([]KindDay, error)
	// Visits counts each visitor's visits to the forum over the period.
	Visits(ctx context.Context, s Scope) (map[uuid.UUID]int, error)
	// List pages the facts of kind, newest first, with their count and
	// how many of them are anonymous.
	List(ctx context.Context, s Scope, kind string, offset, limit int) (ListPage, error)
	// Meetups are the forum's Meet Ups that start in the period, with
	// their invitations and the sessions spent in their rooms.
	Meetups(ctx context.Context, s Scope) ([]Meetup, error)
	// UpdatedOn is the commit time of the newest change the warehouse
	// holds, nil before the first.
	UpdatedOn(ctx context.Context) (*time.Time, error)
}

// Scope is a forum's main channel over a period of UTC days (From and To
// included).
type Scope struct {
	SeriesID      uuid.UUID
	MainChannelID uuid.UUID
	From, To      time.Time
}

// KindDay is a kind's figures on one day.
type KindDay struct {
	Day       time.Time
	Kind      string
	Count     int
	N         int
	Anonymous int
}

// Item is a listed fact.
type Item struct {
	ObjectID  uuid.UUID
	PostID    uuid.UUID
	ActorID   uuid.UUID // uuid.Nil when anonymous
	Anonymous bool
	Occurred  time.Time
	Detail    string
}

// ListPage is a page of a list and the list's size.
type ListPage struct {
	Items     []Item
	Total     int
	Anonymous int
}

// Meetup is a Meet Up as the warehouse has it.
type Meetup struct {
	ID      uuid.UUID
	Private bool
	// Invited counts invitations and registrations (not the declined or
	// the waitlisted).
	Invited  int
	Sessions []Session
}

// Session is a participant's time in a Meet Up's rooms; Seconds is 0 while
// they are still in.
type Session struct {
	UserID  uuid.UUID
	Joined  time.Time
	Seconds int
}
