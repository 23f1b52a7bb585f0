package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"agora/app"
	"agora/app/seed"
	"agora/httpapi"
	"agora/search/answer"
)

// demoQuestion is a row of the README's demo questions: a forum and a
// question, or a follow-up of the row before it.
type demoQuestion struct {
	forum, question string
	followUp        bool
}

// readmeDemoQuestions reads the table between the README's demo questions
// markers.
func readmeDemoQuestions(t *testing.T) []demoQuestion {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "<!-- demo questions -->")
	table, _, ok2 := strings.Cut(rest, "<!-- /demo questions -->")
	if !ok || !ok2 {
		t.Fatal("README.md has no demo questions table")
	}
	var out []demoQuestion
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cells) != 2 {
			continue
		}
		forum, q := strings.TrimSpace(cells[0]), strings.TrimSpace(cells[1])
		if forum == "forum" || strings.HasPrefix(forum, "---") {
			continue
		}
		d := demoQuestion{forum: forum, question: q, followUp: forum == "↳"}
		if d.followUp {
			if len(out) == 0 {
				t.Fatal("the README's demo questions start with a follow-up")
			}
			d.forum = out[len(out)-1].forum
		}
		out = append(out, d)
	}
	if len(out) < 3 {
		t.Fatalf("README.md lists %d demo questions", len(out))
	}
	return out
}

// TestDevAnswersTheREADMEDemoQuestions: a fresh agora dev answers each of
// the README's demo questions, asked by the demo member in its forum, as
// a member reads it: with text that cites at least one post, each once,
// says no sentence twice, opens with no greeting, and is not the "no post
// answers" reply. The discussions reach the AI search through the relay,
// the broker and the search projection, so the first question waits for
// them.
func TestDevAnswersTheREADMEDemoQuestions(t *testing.T) {
	t.Parallel()
	questions := readmeDemoQuestions(t)
	agoraBinary(t)
	s := newDevServer(t)
	p, _ := s.start(90 * time.Second)
	defer s.stop(p)
	token := s.signIn(seed.MemberEmail)

	var communities struct {
		Results []struct {
			ID string `json:"id"`
		} `json:"results"`
	}
	if code := s.do("GET", "/api/communities", token, nil, &communities); code != http.StatusOK {
		t.Fatalf("GET /api/communities: %d", code)
	}
	channel := map[string]string{}
	for _, c := range communities.Results {
		var forums struct {
			Results []struct {
				Name          string `json:"name"`
				MainChannelID string `json:"mainChannelId"`
			} `json:"results"`
		}
		if code := s.do("GET", "/api/series?communityId="+c.ID, token, nil, &forums); code != http.StatusOK {
			t.Fatalf("GET /api/series: %d", code)
		}
		for _, f := range forums.Results {
			channel[f.Name] = f.MainChannelID
		}
	}

	s.waitForSearch(token, channel[questions[0].forum], questions[0].question)

	marker := regexp.MustCompile(`\[\d+\]`)
	greeting := regexp.MustCompile(`(?i)^(hi|hello|hey|thanks)\b`)
	searchID := ""
	for _, q := range questions {
		ch, ok := channel[q.forum]
		if !ok {
			t.Fatalf("the demo member reads no forum named %q (reads %v)", q.forum, channel)
		}
		if !q.followUp {
			searchID = ""
		}
		a := s.ask(token, ch, searchID, q.question)
		searchID = a.SearchID
		t.Logf("%s: %q\n  %s", q.forum, q.question, a.Answer)
		if a.Answer == answer.NoAnswer || len(a.Citations) == 0 {
			t.Errorf("%q: answer %q cites no post", q.question, a.Answer)
			continue
		}
		seen := map[string]bool{}
		for _, m := range marker.FindAllString(a.Answer, -1) {
			if seen[m] {
				t.Errorf("%q: answer %q cites %s twice", q.question, a.Answer, m)
			}
			seen[m] = true
		}
		said := map[string]bool{}
		for _, sentence := range strings.SplitAfter(marker.ReplaceAllString(a.Answer, ""), ". ") {
			sentence = strings.TrimSpace(sentence)
			if sentence != "" && said[sentence] {
				t.Errorf("%q: answer %q says %q twice", q.question, a.Answer, sentence)
			}
			said[sentence] = true
		}
		if greeting.MatchString(a.Answer) {
			t.Errorf("%q: answer %q opens with a greeting", q.question, a.Answer)
		}
	}
}

// waitForSearch waits until the search projection has indexed the demo
// discussions: a question about them finds posts (the relay's snapshot has
// reached the search index), then /readyz twice reports the search
// projection with nothing left to apply, a lag measure apart.
func (s *devServer) waitForSearch(token, channelID, question string) {
	s.t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for len(s.ask(token, channelID, "", question).Citations) == 0 {
		if time.Now().After(deadline) {
			s.t.Fatalf("the demo discussions never reached the AI search")
		}
		time.Sleep(time.Second)
	}
	caughtUp := 0
	for caughtUp < 2 {
		var ready struct {
			Projections []struct {
				Projection string `json:"projection"`
				Lag        int64  `json:"lag"`
			} `json:"projections"`
			Embedder httpapi.Embedder `json:"embedder"`
		}
		s.do("GET", "/readyz", "", nil, &ready)
		// agora dev names its embedder: the model, or the word vectors
		// with the reason the model could not load.
		if e := ready.Embedder; e.Kind == "" || (e.Kind != app.EmbedderModel && e.Fallback == "") {
			s.t.Fatalf("/readyz's embedder %+v: want the sentence model, or a fallback that says why", e)
		}
		lag := int64(-1)
		for _, p := range ready.Projections {
			if p.Projection == "search" {
				lag = p.Lag
			}
		}
		if lag == 0 {
			caughtUp++
		} else {
			caughtUp = 0
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the search projection did not catch up (lag %d)", lag)
		}
		time.Sleep(5 * time.Second) // the runner measures lag every 5 s
	}
}

// demoAnswer is the last event of an AI search stream.
type demoAnswer struct {
	SearchID  string   `json:"searchId"`
	Answer    string   `json:"answer"`
	Citations []string `json:"citations"`
}

// ask asks the AI search (a follow-up when searchID is set) and returns
// its answer event.
func (s *devServer) ask(token, channelID, searchID, q string) demoAnswer {
	s.t.Helper()
	path := "/api/ai/search/" + channelID
	if searchID != "" {
		path += "/" + searchID
	}
	// One member may ask 10 a minute, and the wait for the discussions
	// asks too: a 429 is waited out as a member's browser would.
	var res *http.Response
	for deadline := time.Now().Add(2 * time.Minute); ; {
		req, err := http.NewRequest("GET", s.url(path+"?q="+url.QueryEscape(q)), nil)
		if err != nil {
			s.t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		if res, err = s.http.Do(req); err != nil {
			s.t.Fatalf("GET %s: %v", path, err)
		}
		if res.StatusCode != http.StatusTooManyRequests || time.Now().After(deadline) {
			break
		}
		res.Body.Close()
		wait, _ := strconv.Atoi(res.Header.Get("Retry-After"))
		time.Sleep(time.Duration(max(wait, 1)) * time.Second)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		s.t.Fatalf("GET %s: %d", path, res.StatusCode)
	}
	var last demoAnswer
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var e struct {
			Type string `json:"type"`
			demoAnswer
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			s.t.Fatalf("GET %s: line %q: %v", path, sc.Bytes(), err)
		}
		if e.Type == "answer" {
			last = e.demoAnswer
		}
	}
	if err := sc.Err(); err != nil {
		s.t.Fatalf("GET %s: %v", path, err)
	}
	if last.SearchID == "" {
		s.t.Fatalf("GET %s: no answer event", path)
	}
	return last
}
