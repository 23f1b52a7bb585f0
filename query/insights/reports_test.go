package insights

import (
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/analytics"
	"agora/internal/plumbing/apperr"
)

func TestPeriod(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		bad  bool
	}{
		{"", 90, false}, {"30", 30, false}, {"60", 60, false}, {"90", 90, false},
		{"0", 0, true}, {"45", 0, true}, {"120", 0, true}, {"abc", 0, true}, {"-30", 0, true}, {"30.0", 0, true}, {" 30", 0, true},
	} {
		bad := apperr.Fields{}
		got := period(tc.in, bad)
		if _, isBad := bad["period"]; isBad != tc.bad || (!tc.bad && got != tc.want) {
			t.Errorf("period(%q) = %d, bad %v", tc.in, got, bad)
		}
	}
}

// TestDailyReport: every day of the period, oldest first, zeros included;
// counts by kind; inline questions count questions, not messages.
func TestDailyReport(t *testing.T) {
	today := time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC)
	f := forum{period: 30, from: today.AddDate(0, 0, -29), to: today}
	ks := []KindDay{
		{Day: today, Kind: analytics.KindPost, Count: 2},
		{Day: today, Kind: analytics.KindReaction, Count: 3},
		{Day: f.from, Kind: analytics.KindComment, Count: 1},
		{Day: f.from, Kind: analytics.KindInlineQuestion, Count: 1, N: 4},
		{Day: today, Kind: analytics.KindQuestion, Count: 2, Anonymous: 1},
	}
	r := interactions.report(f, Freshness{Period: 30}, ks)
	if len(r.Data) != 30 || time.Time(r.Data[0].Date) != f.from || time.Time(r.Data[29].Date) != today {
		t.Fatalf("days %d, first %v, last %v", len(r.Data), r.Data[0].Date, r.Data[29].Date)
	}
	if r.Total != 6 || r.Data[29].Count != 5 || r.Data[0].Count != 1 {
		t.Errorf("interactions %+v", r)
	}
	if want := map[string]int{"posts": 2, "comments": 1, "replies": 0, "reactions": 3}; !reflect.DeepEqual(r.Counts, want) {
		t.Errorf("counts %v, want %v", r.Counts, want)
	}
	if r := inlineQuestions.report(f, Freshness{}, ks); r.Total != 4 || len(r.Counts) != 0 {
		t.Errorf("inline questions %d %v", r.Total, r.Counts)
	}
	if r := askedQuestions.report(f, Freshness{}, ks); r.Total != 2 || r.Counts["anonymous"] != 1 {
		t.Errorf("asked questions %d %v", r.Total, r.Counts)
	}
}

func TestContentReport(t *testing.T) {
	r := content(Freshness{}, []KindDay{{Kind: analytics.KindImage, Count: 2}, {Kind: analytics.KindLink, Count: 1}, {Kind: analytics.KindImage, Count: 0}})
	want := []ContentKind{{"image", 2, 66.7}, {"file", 0, 0}, {"link", 1, 33.3}, {"video", 0, 0}, {"aiChat", 0, 0}}
	if r.Total != 3 || !reflect.DeepEqual(r.Kinds, want) {
		t.Errorf("content %+v", r)
	}
	if r := content(Freshness{}, nil); r.Total != 0 || len(r.Kinds) != 5 || r.Kinds[0].Percent != 0 {
		t.Errorf("empty content %+v", r)
	}
}

// TestMeetupsReport: attendance counts people once per Meet Up; the
// averages are over the Meet Ups someone came to.
func TestMeetupsReport(t *testing.T) {
	at := time.Date(2026, 3, 30, 15, 0, 0, 0, time.UTC)
	ada, bo := uuid.New(), uuid.New()
	r := meetups(Freshness{}, []Meetup{
		{ID: uuid.New(), Invited: 3, Sessions: []Session{
			{UserID: ada, Joined: at, Seconds: 600},
			{UserID: ada, Joined: at.Add(20 * time.Minute), Seconds: 600}, // came back: once
			{UserID: bo, Joined: at.Add(5 * time.Minute), Seconds: 60},
		}},
		{ID: uuid.New(), Private: true, Invited: 2, Sessions: []Session{{UserID: bo, Joined: at, Seconds: 900}}},
		{ID: uuid.New(), Invited: 4}, // nobody came yet
	})
	want := MeetupsReport{Meetups: 3, Invited: 9, Attended: 3, AttendanceAvg: 1.5, DurationAvg: 22.5, Private: 1}
	if r != want {
		t.Errorf("report %+v, want %+v", r, want)
	}
	if r := meetups(Freshness{}, nil); r != (MeetupsReport{}) {
		t.Errorf("no Meet Ups: %+v", r)
	}
}
