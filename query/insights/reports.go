package insights

import (
	"context"
	"math"
	"time"

	"github.com/google/uuid"

	"agora/analytics"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
)

// DailyReport is a report of one entry a day (spec 002 §3): interactions,
// asked questions, inline questions, AI searches.
type DailyReport struct {
	Freshness
	Total int        `json:"total"`
	Data  []DayCount `json:"data"`
	// Counts splits the total by kind where the report has kinds.
	Counts map[string]int `json:"counts"`
}

// daily is how one daily report counts.
type daily struct {
	kinds []string
	// count is what a kind's day adds to the day's count.
	count func(KindDay) int
	// counts names the kinds of Counts (nil: none), and anonymous adds
	// counts.anonymous.
	counts    map[string]string
	anonymous bool
}

func rows(k KindDay) int { return k.Count }

// The daily reports.
var (
	interactions = daily{
		kinds: []string{analytics.KindPost, analytics.KindComment, analytics.KindReply, analytics.KindReaction}, count: rows,
		counts: map[string]string{analytics.KindPost: "posts", analytics.KindComment: "comments", analytics.KindReply: "replies", analytics.KindReaction: "reactions"},
	}
	// Inline questions count the questions, not the messages asking them.
	inlineQuestions = daily{kinds: []string{analytics.KindInlineQuestion}, count: func(k KindDay) int { return k.N }}
	askedQuestions  = daily{kinds: []string{analytics.KindQuestion}, count: rows, anonymous: true}
	aiSearches      = daily{kinds: []string{analytics.KindAISearch}, count: rows}
)

// Interactions is GET /reports/interactions/{seriesId}: posts, comments,
// replies and reactions a day.
func (q *Queries) Interactions(ctx context.Context, r Request) (DailyReport, error) {
	return q.daily(ctx, r, interactions)
}

// InlineQuestions is GET /reports/inline-questions/{seriesId}: the
// questions asked inside comments and replies, a day.
func (q *Queries) InlineQuestions(ctx context.Context, r Request) (DailyReport, error) {
	return q.daily(ctx, r, inlineQuestions)
}

// AskedQuestions is GET /reports/asked-questions/{seriesId}: question
// posts a day, counts.anonymous of them anonymous.
func (q *Queries) AskedQuestions(ctx context.Context, r Request) (DailyReport, error) {
	return q.daily(ctx, r, askedQuestions)
}

// AISearches is GET /reports/ai-searches/{seriesId}: questions asked of the
// AI search a day.
func (q *Queries) AISearches(ctx context.Context, r Request) (DailyReport, error) {
	return q.daily(ctx, r, aiSearches)
}

func (q *Queries) daily(ctx context.Context, r Request, d daily) (DailyReport, error) {
	f, err := q.open(ctx, r, apperr.Fields{})
	if err != nil {
		return DailyReport{}, err
	}
	fresh, err := q.freshness(ctx, f)
	if err != nil {
		return DailyReport{}, err
	}
	ks, err := q.store.Daily(ctx, f.scope(), d.kinds...)
	if err != nil {
		return DailyReport{}, err
	}
	return d.report(f, fresh, ks), nil
}

// report folds the warehouse's figures into the report.
func (d daily) report(f forum, fresh Freshness, ks []KindDay) DailyReport {
	rep := DailyReport{Freshness: fresh, Counts: map[string]int{}}
	for _, name := range d.counts {
		rep.Counts[name] = 0
	}
	if d.anonymous {
		rep.Counts["anonymous"] = 0
	}
	perDay := map[time.Time]int{}
	for _, k := range ks {
		if !contains(d.kinds, k.Kind) {
			continue
		}
		n := d.count(k)
		perDay[k.Day] += n
		rep.Total += n
		if name, ok := d.counts[k.Kind]; ok {
			rep.Counts[name] += n
		}
		if d.anonymous {
			rep.Counts["anonymous"] += k.Anonymous
		}
	}
	rep.Data = f.days(perDay)
	return rep
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ContentReport is GET /reports/content/{seriesId}: the period's posts
// that share content, by kind.
type ContentReport struct {
	Freshness
	// Total is the sum of the kinds' values: a post with an image and a
	// link counts once in each, and the percents add up to 100.
	Total int           `json:"total"`
	Kinds []ContentKind `json:"kinds"`
}

// ContentKind is one kind of shared content.
type ContentKind struct {
	Kind    string  `json:"kind"`
	Value   int     `json:"value"`
	Percent float64 `json:"percent"`
}

// contentKinds are the kinds in the contract's order, with their names on
// the wire.
var contentKinds = []struct{ fact, wire string }{
	{analytics.KindImage, "image"}, {analytics.KindFile, "file"}, {analytics.KindLink, "link"}, {analytics.KindVideo, "video"}, {analytics.KindAIChat, "aiChat"},
}

// Content is the shared content report.
func (q *Queries) Content(ctx context.Context, r Request) (ContentReport, error) {
	f, err := q.open(ctx, r, apperr.Fields{})
	if err != nil {
		return ContentReport{}, err
	}
	fresh, err := q.freshness(ctx, f)
	if err != nil {
		return ContentReport{}, err
	}
	var facts []string
	for _, k := range contentKinds {
		facts = append(facts, k.fact)
	}
	ks, err := q.store.Daily(ctx, f.scope(), facts...)
	if err != nil {
		return ContentReport{}, err
	}
	return content(fresh, ks), nil
}

func content(fresh Freshness, ks []KindDay) ContentReport {
	values := map[string]int{}
	rep := ContentReport{Freshness: fresh}
	for _, k := range ks {
		values[k.Kind] += k.Count
		rep.Total += k.Count
	}
	for _, k := range contentKinds {
		ck := ContentKind{Kind: k.wire, Value: values[k.fact]}
		if rep.Total > 0 {
			ck.Percent = math.Round(float64(ck.Value)*1000/float64(rep.Total)) / 10
		}
		rep.Kinds = append(rep.Kinds, ck)
	}
	return rep
}

// MeetupsReport is GET /reports/meetups/{seriesId}.
type MeetupsReport struct {
	Freshness
	Meetups       int     `json:"meetups"`
	Invited       int     `json:"invited"`
	Attended      int     `json:"attended"`
	AttendanceAvg float64 `json:"attendanceAvg"`
	DurationAvg   float64 `json:"durationAvg"`
	Private       int     `json:"private"`
}

// Meetups is the Meet Ups report over the Meet Ups that start in the
// period.
func (q *Queries) Meetups(ctx context.Context, r Request) (MeetupsReport, error) {
	f, err := q.open(ctx, r, apperr.Fields{})
	if err != nil {
		return MeetupsReport{}, err
	}
	fresh, err := q.freshness(ctx, f)
	if err != nil {
		return MeetupsReport{}, err
	}
	ms, err := q.store.Meetups(ctx, f.scope())
	if err != nil {
		return MeetupsReport{}, err
	}
	return meetups(fresh, ms), nil
}

// meetups folds the Meet Ups into the report: invited counts invitations
// and registrations; attended the people who came, once per Meet Up
// however often they rejoined; the averages are over the Meet Ups held
// (someone came), attendance in people and duration in minutes from the
// first arrival to the last departure.
func meetups(fresh Freshness, ms []Meetup) MeetupsReport {
	rep := MeetupsReport{Freshness: fresh, Meetups: len(ms)}
	held, minutes := 0, 0.0
	for _, m := range ms {
		if m.Private {
			rep.Private++
		}
		rep.Invited += m.Invited
		if len(m.Sessions) == 0 {
			continue
		}
		held++
		came := map[uuid.UUID]bool{}
		first, last := m.Sessions[0].Joined, m.Sessions[0].Joined
		for _, s := range m.Sessions {
			came[s.UserID] = true
			if s.Joined.Before(first) {
				first = s.Joined
			}
			if end := s.Joined.Add(time.Duration(s.Seconds) * time.Second); end.After(last) {
				last = end
			}
		}
		rep.Attended += len(came)
		minutes += last.Sub(first).Minutes()
	}
	if held > 0 {
		rep.AttendanceAvg = math.Round(float64(rep.Attended)*10/float64(held)) / 10
		rep.DurationAvg = math.Round(minutes*10/float64(held)) / 10
	}
	return rep
}

// Summary is GET /summary/{seriesId}: the docked panel's figures, the
// totals of the reports.
type Summary struct {
	Freshness
	Interactions  int `json:"interactions"`
	SharedContent int `json:"sharedContent"`
	Meetups       int `json:"meetups"`
	// Members are the period's visitors among the members.
	Members int `json:"members"`
	// Inquiries are AI searches, asked questions and inline questions.
	Inquiries int `json:"inquiries"`
}

// Summary reads every kind the totals need at once.
func (q *Queries) Summary(ctx context.Context, r Request) (Summary, error) {
	f, err := q.open(ctx, r, apperr.Fields{})
	if err != nil {
		return Summary{}, err
	}
	return q.summary(ctx, f)
}

// DigestSummary is Summary over the last days UTC days, today included
// (1 or 7: the insights digest's daily and weekly periods), for a caller
// who administers the forum.
func (q *Queries) DigestSummary(ctx context.Context, c auth.Caller, seriesID uuid.UUID, days int) (Summary, error) {
	f, err := q.admin(ctx, c, seriesID)
	if err != nil {
		return Summary{}, err
	}
	today := q.now().UTC().Truncate(24 * time.Hour)
	f.period, f.from, f.to = days, today.AddDate(0, 0, -(days-1)), today
	return q.summary(ctx, f)
}

func (q *Queries) summary(ctx context.Context, f forum) (Summary, error) {
	fresh, err := q.freshness(ctx, f)
	if err != nil {
		return Summary{}, err
	}
	var all []string
	for _, d := range []daily{interactions, inlineQuestions, askedQuestions, aiSearches} {
		all = append(all, d.kinds...)
	}
	for _, k := range contentKinds {
		all = append(all, k.fact)
	}
	ks, err := q.store.Daily(ctx, f.scope(), all...)
	if err != nil {
		return Summary{}, err
	}
	m, err := q.members(ctx, f)
	if err != nil {
		return Summary{}, err
	}
	ms, err := q.store.Meetups(ctx, f.scope())
	if err != nil {
		return Summary{}, err
	}
	var shared []KindDay
	for _, k := range ks {
		for _, c := range contentKinds {
			if k.Kind == c.fact {
				shared = append(shared, k)
			}
		}
	}
	return Summary{
		Freshness:     fresh,
		Interactions:  interactions.report(f, fresh, ks).Total,
		SharedContent: content(fresh, shared).Total,
		Members:       m.Counts.Visitors,
		Meetups:       len(ms),
		Inquiries: aiSearches.report(f, fresh, ks).Total + askedQuestions.report(f, fresh, ks).Total +
			inlineQuestions.report(f, fresh, ks).Total,
	}, nil
}
