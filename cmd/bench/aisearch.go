package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"path/filepath"
	"time"

	guuid "github.com/google/uuid"

	"agora/app"
	"agora/app/seed"
	"agora/internal/plumbing/config"
	"agora/search"
)

// aiSearchBench measures the forums' AI search over loopback HTTP:
//
//	ai-first-line  the time from sending GET /api/ai/search/{channelId}?q=
//	               to receiving the stream's first NDJSON line (the threads
//	               event: the session, the channel and access checks, the
//	               retrieval from the search store, the first flush), with
//	               the extractive answerer, over aiQuestions questions asked
//	               one after another after aiWarmup untimed ones, each read
//	               to its end (the turn is stored). aiPosts generated posts
//	               and comments of the demo member's forum are indexed
//	               straight into an embedded search store of their own, and
//	               a second API is built over it and the bench's database,
//	               as runProduct builds its own.
//
// Questions are plain-language ("How do you approach pricing experiments?"),
// so most go through retrieval's fallbacks (stopwords dropped, then the
// longest words) before they find posts: the measure includes them.
const (
	aiPosts     = 3000
	aiQuestions = 300
	aiWarmup    = 30
	aiSeed      = 20260607
)

// aiTopics and aiSentences make the posts' texts; aiAsks the questions.
var (
	aiTopics = []string{
		"pricing experiments", "discovery interviews", "roadmap planning", "engineer onboarding", "hiring loops",
		"usage-based billing", "accessibility audits", "churn analysis", "design reviews", "incident postmortems",
		"release notes", "customer advisory boards", "quarterly objectives", "database migrations", "feature flags",
		"security reviews", "user research", "experiment analysis", "support escalations", "vendor selection",
		"performance budgets", "product documentation", "beta programs", "partner integrations", "localization",
		"mobile releases", "analytics tracking", "sales handoffs", "team rituals", "board reporting",
	}
	aiSentences = []string{
		"We moved our %s to a weekly cadence and it cut the back-and-forth in half.",
		"Has anyone found a good way to measure %s without annoying customers?",
		"Our checklist for %s lives in the team wiki; the first step is always a written brief.",
		"The hardest part of %s for us was getting sales and engineering to agree on priorities.",
		"I would run %s with a small group first, then widen it once the format works.",
		"We tried outsourcing %s last year and brought it back in-house after two quarters.",
		"For %s we keep a decision log so new hires can see why things are the way they are.",
		"Our board asks about %s every quarter, so we built a one-page dashboard for it.",
		"Start %s with the customer interviews, not with the spreadsheet.",
		"We budget two sprints a year just for the debt that %s leaves behind.",
		"A product manager owns %s here, with a designer and an engineer as co-owners.",
		"Honestly, %s only started working once leadership stopped treating it as optional.",
	}
	aiAsks = []string{
		"How do you approach %s?",
		"What is the first step of %s?",
		"Who should own %s on a small team?",
		"How often do you review %s?",
		"Any advice on measuring %s?",
		"Why did you bring %s back in-house?",
	}
)

func aiSearchBench(ctx context.Context, selected map[string]bool, cfg config.Config, d *app.Database, log *slog.Logger) (err error) {
	if !selected["ai-first-line"] {
		return nil
	}
	var forumID, channelID, communityID string
	if err := d.Pool.QueryRow(ctx, `SELECT s.id::text, c.id::text, s.community_id::text FROM series s
		JOIN channels c ON c.series_id = s.id AND c.kind = 'main' WHERE s.name = $1`, feedForum).Scan(&forumID, &channelID, &communityID); err != nil {
		return fmt.Errorf("ai-first-line: forum %q: %w", feedForum, err)
	}
	var authors []string
	rows, err := d.Pool.Query(ctx, `SELECT p.user_id::text FROM series_memberships sm JOIN profiles p ON p.id = sm.profile_id
		WHERE sm.series_id = $1::uuid AND sm.status = 'active' AND p.user_id IS NOT NULL`, forumID)
	if err != nil {
		return fmt.Errorf("ai-first-line: authors: %w", err)
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		authors = append(authors, id)
	}
	rows.Close()
	if len(authors) == 0 {
		return fmt.Errorf("ai-first-line: forum %q has no members", feedForum)
	}

	store, err := search.OpenEmbedded(filepath.Join(cfg.DataDir, "ai-bench-search"))
	if err != nil {
		return fmt.Errorf("ai-first-line: %w", err)
	}
	defer store.Close()
	rng := rand.New(rand.NewPCG(aiSeed, aiSeed))
	start := time.Now()
	if err := aiIndex(ctx, store, rng, forumID, channelID, communityID, authors); err != nil {
		return fmt.Errorf("ai-first-line: index: %w", err)
	}
	indexed := time.Since(start)

	// A second API over the same database, reading this store; the
	// configuration has no model, so answers are extractive.
	srv, err := app.NewAPI(cfg, d.DB, log, app.WithSearch(store))
	if err != nil {
		return err
	}
	c, stop, err := serveAPI(ctx, srv)
	if err != nil {
		return fmt.Errorf("ai-first-line: %w", err)
	}
	defer func() {
		if serr := stop(); serr != nil && err == nil {
			err = fmt.Errorf("ai-first-line: %w", serr)
		}
	}()
	token, err := c.signIn(ctx, seed.MemberEmail, cfg.DemoPassword)
	if err != nil {
		return fmt.Errorf("ai-first-line: %w", err)
	}
	fmt.Printf("ai search data: %d posts and comments of forum %q indexed straight into an embedded store in %.1f s\n",
		aiPosts, feedForum, indexed.Seconds())

	ask := func(q string) (aiAnswer, error) {
		return aiAskOnce(ctx, c, token, channelID, q)
	}
	question := func() string {
		return fmt.Sprintf(aiAsks[rng.IntN(len(aiAsks))], aiTopics[rng.IntN(len(aiTopics))])
	}
	for range aiWarmup {
		if _, err := ask(question()); err != nil {
			return fmt.Errorf("ai-first-line: %w", err)
		}
	}
	first := make([]time.Duration, 0, aiQuestions)
	whole := make([]time.Duration, 0, aiQuestions)
	found, cited := 0, 0
	wall := time.Now()
	for range aiQuestions {
		a, err := ask(question())
		if err != nil {
			return fmt.Errorf("ai-first-line: %w", err)
		}
		first, whole = append(first, a.first), append(whole, a.whole)
		if a.posts > 0 {
			found++
		}
		if a.cited > 0 {
			cited++
		}
	}
	f, w := newResult(first, time.Since(wall)), newResult(whole, time.Since(wall))
	fmt.Printf("%-48s p50 %6.2f ms  p95 %6.2f ms  p99 %6.2f ms  (n=%d, sequential, extractive)\n",
		"AI search, first NDJSON line:", ms(f.p(50)), ms(f.p(95)), ms(f.p(99)), f.n())
	fmt.Printf("%-48s p50 %6.2f ms  p95 %6.2f ms  (posts retrieved for %d of %d questions, cited by %d answers)\n",
		"AI search, whole answer (stored):", ms(w.p(50)), ms(w.p(95)), found, aiQuestions, cited)
	fmt.Printf("ai-first-line target: p95 <= 150 ms (%s)\n", verdict(f.p(95) <= 150*time.Millisecond))
	if found < aiQuestions/2 {
		return fmt.Errorf("ai-first-line: posts were retrieved for only %d of %d questions", found, aiQuestions)
	}
	return nil
}

// aiIndex upserts aiPosts documents into the store: posts, and a fifth of
// comments under them, by the forum's members, over the last 90 days.
func aiIndex(ctx context.Context, store search.Store, rng *rand.Rand, forumID, channelID, communityID string, authors []string) error {
	now := time.Now().UnixMilli()
	docs := make([]search.Post, 0, aiPosts)
	var threads []string
	for i := range aiPosts {
		id := guuid.Must(guuid.NewV7()).String()
		topic := aiTopics[rng.IntN(len(aiTopics))]
		text := fmt.Sprintf(aiSentences[rng.IntN(len(aiSentences))], topic)
		if rng.IntN(2) == 0 {
			text += " " + fmt.Sprintf(aiSentences[rng.IntN(len(aiSentences))], aiTopics[rng.IntN(len(aiTopics))])
		}
		p := search.Post{
			ID: id, Kind: "post", ThreadID: id, ChannelID: channelID, ForumID: forumID, CommunityID: communityID,
			AuthorID: authors[rng.IntN(len(authors))], Text: text, Hashtags: []string{},
			ReaderIDs: []string{}, CreatedAt: now - int64(aiPosts-i)*int64(45*time.Minute/time.Millisecond),
		}
		if len(threads) > 0 && i%5 == 0 {
			p.Kind, p.ThreadID = "comment", threads[rng.IntN(len(threads))]
		} else {
			threads = append(threads, id)
		}
		docs = append(docs, p)
	}
	for i := 0; i < len(docs); i += 500 {
		if err := store.Posts().Upsert(ctx, docs[i:min(i+500, len(docs))]...); err != nil {
			return err
		}
	}
	return store.Posts().Wait(ctx)
}

// aiAnswer is one timed question.
type aiAnswer struct {
	first, whole time.Duration
	posts, cited int
}

// aiAskOnce asks one question and reads its stream to the end: the time to
// the first line and to the end, the posts retrieved and cited.
func aiAskOnce(ctx context.Context, c *client, token, channelID, q string) (aiAnswer, error) {
	var a aiAnswer
	req, err := http.NewRequestWithContext(ctx, "GET", c.base+"/api/ai/search/"+channelID+"?q="+url.QueryEscape(q), nil)
	if err != nil {
		return a, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	t0 := time.Now()
	res, err := c.http.Do(req)
	if err != nil {
		return a, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		return a, fmt.Errorf("GET %s: %d %s", req.URL.Path, res.StatusCode, b)
	}
	br := bufio.NewReader(res.Body)
	line, err := br.ReadBytes('\n')
	if err != nil {
		return a, fmt.Errorf("first line: %w", err)
	}
	a.first = time.Since(t0)
	var threads struct {
		Type  string `json:"type"`
		Posts []any  `json:"posts"`
	}
	if err := json.Unmarshal(line, &threads); err != nil || threads.Type != "threads" {
		return a, fmt.Errorf("first line %q is not a threads event (%v)", line, err)
	}
	a.posts = len(threads.Posts)
	var last []byte
	for {
		l, err := br.ReadBytes('\n')
		if len(l) > 0 {
			last = l
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return a, err
		}
	}
	a.whole = time.Since(t0)
	var answer struct {
		Type      string   `json:"type"`
		Done      bool     `json:"done"`
		Citations []string `json:"citations"`
	}
	if err := json.Unmarshal(last, &answer); err != nil || answer.Type != "answer" || !answer.Done {
		return a, fmt.Errorf("last line %q is not a done answer (%v)", last, err)
	}
	a.cited = len(answer.Citations)
	return a, nil
}
