// Package insights is the read side of the Insights panel (spec 002 §2, §3,
// §7): a forum's reports, read from the insights warehouse, for the
// forum's admins. Who may ask, which forum it is, its channels and who is
// a member now come from Postgres; the activity figures from the
// warehouse (Store), counting what exists now in the forum's main
// channel over the period's UTC days.
package insights

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"agora/internal/plumbing/db"

	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/jsontime"
)

// Periods are the report periods in days (spec 002 §9); the default is 90.
var Periods = []int{30, 60, 90}

// DefaultPeriod is the period when none is asked for.
const DefaultPeriod = 90

// MaxPageSize is the largest page of a list.
const MaxPageSize = 100

// DefaultPageSize is a list's page when none is asked for.
const DefaultPageSize = 20

// ErrNoWarehouse means the process has no insights warehouse to read
// (agora api without CLICKHOUSE_URL).
var ErrNoWarehouse = errors.New("insights: no warehouse is configured (set CLICKHOUSE_URL)")

// Queries answer the reports.
type Queries struct {
	db    db.Querier
	store Store
	now   func() time.Time
}

// New returns the reports over db (rights, forums, members) and store
// (the warehouse); a nil store makes every report fail with
// ErrNoWarehouse once the caller's rights are checked.
func New(d *db.DB, store Store) (*Queries, error) {
	if d == nil || d.Pool == nil {
		return nil, fmt.Errorf("insights.New: nil dependency")
	}
	return &Queries{db: d.Pool, store: store, now: time.Now}, nil
}

// Request names a forum and a period, as a route receives them.
type Request struct {
	Caller   auth.Caller
	SeriesID uuid.UUID
	// Period is the period parameter as sent; empty means the default.
	Period string
}

// Freshness says which period a report covers and how fresh it is.
type Freshness struct {
	Period int `json:"period"`
	// UpdatedOn is the commit time of the newest change the warehouse
	// holds; null before the first.
	UpdatedOn *jsontime.Time `json:"updatedOn"`
}

// forum is the forum a report is about, once the caller may read it.
type forum struct {
	id          uuid.UUID
	main, admin uuid.UUID
	hasAdmin    bool
	period      int
	from, to    time.Time // the period's first and last UTC days
}

// period reads the period parameter: 30, 60 or 90, nothing else.
func period(s string, bad apperr.Fields) int {
	if s == "" {
		return DefaultPeriod
	}
	n, err := strconv.Atoi(s)
	if err == nil {
		for _, p := range Periods {
			if n == p {
				return n
			}
		}
	}
	bad.Add("period", "must be 30, 60 or 90")
	return DefaultPeriod
}

// open checks the request (bad input first, then an unknown forum, then a
// caller who does not administer it) and resolves the forum's channels
// and the period's days. Reports are for forum admins only: a forum
// admin, an admin of its community or organization, or a super user
// (access.Forum.Admin, the rule every admin-only action of a forum uses).
func (q *Queries) open(ctx context.Context, r Request, bad apperr.Fields) (forum, error) {
	p := period(r.Period, bad)
	if err := bad.Err(); err != nil {
		return forum{}, err
	}
	f, err := q.admin(ctx, r.Caller, r.SeriesID)
	if err != nil {
		return forum{}, err
	}
	// The period is its last p UTC days, today included.
	today := q.now().UTC().Truncate(24 * time.Hour)
	f.period, f.from, f.to = p, today.AddDate(0, 0, -(p-1)), today
	return f, nil
}

// scope is what the warehouse is asked about.
func (f forum) scope() Scope {
	return Scope{SeriesID: f.id, MainChannelID: f.main, From: f.from, To: f.to}
}

// warehouse is the store, or ErrNoWarehouse.
func (q *Queries) warehouse() (Store, error) {
	if q.store == nil {
		return nil, ErrNoWarehouse
	}
	return q.store, nil
}

// freshness reads the warehouse's watermark.
func (q *Queries) freshness(ctx context.Context, f forum) (Freshness, error) {
	s, err := q.warehouse()
	if err != nil {
		return Freshness{}, err
	}
	t, err := s.UpdatedOn(ctx)
	if err != nil {
		return Freshness{}, err
	}
	return Freshness{Period: f.period, UpdatedOn: jsontime.Ptr(t)}, nil
}

// days lists the period's days, oldest first, with zero counts.
func (f forum) days(counts map[time.Time]int) []DayCount {
	out := make([]DayCount, 0, f.period)
	for d := f.from; !d.After(f.to); d = d.AddDate(0, 0, 1) {
		out = append(out, DayCount{Date: Day(d), Count: counts[d]})
	}
	return out
}

// Day is a UTC day on the wire: YYYY-MM-DD.
type Day time.Time

// MarshalJSON writes the day.
func (d Day) MarshalJSON() ([]byte, error) {
	return []byte(`"` + time.Time(d).UTC().Format(time.DateOnly) + `"`), nil
}

// DayCount is one day of a daily report.
type DayCount struct {
	Date  Day `json:"date"`
	Count int `json:"count"`
}
