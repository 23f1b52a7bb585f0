package answer

import "testing"

// TestNamed: a sentence "I …" is put in the third person under its
// author's name only where that reads right; one that holds another
// first-person word, or a verb whose tense cannot be told, is not.
func TestNamed(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"I hold office hours for new managers every Tuesday.", "Grace Liu holds office hours for new managers every Tuesday."},
		{"I'm running the book club this spring.", "Grace Liu is running the book club this spring."},
		{"I’ve moved the call to Thursdays.", "Grace Liu has moved the call to Thursdays."},
		{"I'll send the slides after the Meet Up.", "Grace Liu will send the slides after the Meet Up."},
		{"I usually teach the Go workshop in March.", "Grace Liu usually teaches the Go workshop in March."},
		{"I went to the offsite in Lisbon.", "Grace Liu went to the offsite in Lisbon."},
		{"I moved the retro to Fridays.", "Grace Liu moved the retro to Fridays."},
		{"I try to answer within a day.", "Grace Liu tries to answer within a day."},
		{"I do the hiring loop on Wednesdays.", "Grace Liu does the hiring loop on Wednesdays."},
		{"I can't make the Monday call.", "Grace Liu can't make the Monday call."},
		{"I don't record the sessions.", "Grace Liu doesn't record the sessions."},
		{"I hold my office hours on Tuesdays.", ""},   // "my" stays hers
		{"I asked and we got 15 % off.", ""},          // "we" is not her alone
		{"I read the report every quarter.", ""},      // read: now or then?
		{"I, for one, prefer async standups.", ""},    // no verb after I
		{"I SQL-format everything.", ""},              // not a verb it knows
		{"We give ML teams 60 % of the credits.", ""}, // not "I"
		{"Office hours are on Tuesdays.", ""},
	} {
		got, ok := named(tt.in, "Grace Liu")
		if (tt.want == "") == ok || got != tt.want {
			t.Errorf("named(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}

// TestAsksFigure: what kind of figure a question asks for, and which
// sentences carry it.
func TestAsksFigure(t *testing.T) {
	for _, tt := range []struct {
		q, yes, no string
		kind       int
	}{
		{"What percent of the bill do credits cover?", "They cover 60 % of it.", "They cover most of it.", figurePercent},
		{"How much is the nonprofit discount?", "It is 15 % off.", "It is generous.", figureAny},
		{"How many seats does the team plan have?", "Twelve seats.", "Plenty of seats.", figureAny},
		{"When is the design review?", "It is on Mondays at 10 am.", "It is in the big room.", figureWhen},
		{"How long do pairings last?", "Pairings last six weeks.", "Pairings are by track.", figureWhen},
		{"Who runs the book club?", "", "", figureNone},
	} {
		k := asksFigure(tt.q)
		if k != tt.kind {
			t.Errorf("asksFigure(%q) = %d, want %d", tt.q, k, tt.kind)
			continue
		}
		if tt.yes != "" && !holdsFigure(tt.yes, k) {
			t.Errorf("%q: %q holds no figure", tt.q, tt.yes)
		}
		if tt.no != "" && holdsFigure(tt.no, k) {
			t.Errorf("%q: %q holds a figure", tt.q, tt.no)
		}
	}
}
