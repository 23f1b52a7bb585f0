package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
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
	"agora/projections"
	"agora/projections/searchindex"
	"agora/search"
)

// aiSearchBench measures the forums' AI search over loopback HTTP as
// agora dev runs it:
//
//	ai-first-line  the time from sending GET /api/ai/search/{channelId}?q=
//	               to receiving the stream's first NDJSON line (the threads
//	               event: the session, the channel and access checks, the
//	               question embedded by the sentence model, the hybrid
//	               retrieval from the search store, keywords and vectors,
//	               the first flush), with the extractive answerer, over
//	               aiQuestions questions asked one after another after
//	               aiWarmup untimed ones, each read to its end (the turn is
//	               stored). -ai-posts generated posts and comments (100,000)
//	               of the demo member's forum are indexed straight into an
//	               embedded search store of their own, then given their
//	               vectors as agora dev gives a store's posts when its
//	               embedding model changed (app.MatchEmbedder: the search
//	               projection's embedder, through the embeddings API that
//	               app.StartEmbeddings serves over the model and its on-disk
//	               cache, so that a second run on the machine reads the
//	               vectors back); a second API is built over that store, the
//	               same embeddings and the bench's database, as runProduct
//	               builds its own.
//
// Questions are plain-language ("How do you approach pricing experiments?"),
// so most go through retrieval's fallbacks (stopwords dropped, then the
// longest words) before they find posts: the measure includes them.
const (
	aiQuestions = 300
	aiWarmup    = 30
	aiSeed      = 20260607
)

var (
	aiPostsN  = flag.Int("ai-posts", 100_000, "ai-first-line: posts and comments in the forum searched")
	aiProfile = flag.String("ai-cpuprofile", "", "write a CPU profile of ai-first-line's timed questions (the API in process) to this file")
)

// aiTopics, aiSentences, aiAsides and the lists of names, customers and
// figures make the posts' texts; aiAsks the questions. A text draws a
// topic, a customer, a person and numbers for each of its one to three
// sentences, so that 100,000 of them are nearly all distinct: repeated
// texts would be embedded once (the cache) and crowd together in the
// graph, flattering both the indexing time and the nearest-neighbour walk.
var (
	aiTopics = []string{
		"pricing experiments", "discovery interviews", "roadmap planning", "engineer onboarding", "hiring loops",
		"usage-based billing", "accessibility audits", "churn analysis", "design reviews", "incident postmortems",
		"release notes", "customer advisory boards", "quarterly objectives", "database migrations", "feature flags",
		"security reviews", "user research", "experiment analysis", "support escalations", "vendor selection",
		"performance budgets", "product documentation", "beta programs", "partner integrations", "localization",
		"mobile releases", "analytics tracking", "sales handoffs", "team rituals", "board reporting",
	}
	// aiSentences take a topic, a customer, a person and a number.
	aiSentences = []string{
		"We moved our %[1]s to a weekly cadence after %[2]s complained, and it cut the back-and-forth in half within %[4]d days.",
		"Has anyone found a good way to measure %[1]s without annoying customers like %[2]s?",
		"Our checklist for %[1]s lives in the team wiki; %[3]s insists the first step is always a written brief.",
		"The hardest part of %[1]s for us was getting sales and engineering to agree, until %[3]s ran a %[4]d-minute workshop.",
		"I would run %[1]s with a small group first, maybe %[4]d accounts like %[2]s, then widen it once the format works.",
		"We tried outsourcing %[1]s to %[2]s last year and brought it back in-house after %[4]d weeks.",
		"For %[1]s we keep a decision log so new hires can see why things are the way they are; %[3]s started it.",
		"Our board asks about %[1]s every quarter, so %[3]s built a one-page dashboard with %[4]d metrics.",
		"Start %[1]s with the customer interviews, not with the spreadsheet: %[2]s taught us that the hard way.",
		"We budget %[4]d sprints a year just for the debt that %[1]s leaves behind, says %[3]s.",
		"%[3]s owns %[1]s here, with a designer and an engineer as co-owners since the %[2]s launch.",
		"Honestly, %[1]s only started working once %[3]s stopped treating it as optional, about %[4]d weeks ago.",
		"%[2]s asked us to pause %[1]s for %[4]d days while their procurement team reviewed the contract.",
		"Does anyone have a template for %[1]s? %[3]s wants one before the offsite.",
		"Our %[1]s went sideways when %[2]s renewed early; %[3]s is writing up what we learned.",
		"After %[4]d rounds of %[1]s we finally have numbers that %[2]s's finance team trusts.",
	}
	// aiAsides follow a first sentence: a person, a number, a customer.
	aiAsides = []string{
		"%[1]s thinks we should revisit it in %[2]d weeks.",
		"It took %[1]s about %[2]d hours end to end.",
		"Happy to share the doc if it helps, ping %[1]s.",
		"%[3]s liked the result, for what it is worth.",
		"We are at %[2]d percent adoption so far.",
		"Next up is doing the same for %[3]s's team.",
		"Curious whether others see the same thing with %[3]s.",
		"%[1]s will present the numbers on Thursday.",
	}
	aiFirstNames = []string{
		"Amara", "Bruno", "Chen", "Dalia", "Emeka", "Farah", "Goran", "Hana", "Ines", "Jonas", "Kavya", "Liam",
		"Mei", "Nadia", "Omar", "Priya", "Quentin", "Rosa", "Sven", "Tariq", "Uma", "Viktor", "Wen", "Yara",
		"Zoe", "Arjun", "Beatriz", "Cyrus", "Dmitri", "Elif",
	}
	aiLastNames = []string{
		"Okafor", "Silva", "Nakamura", "Haddad", "Kowalski", "Ferreira", "Lindqvist", "Mensah", "Rossi", "Novak",
		"Ibrahim", "Tanaka", "Moreau", "Kaur", "Jensen", "Alvarez", "Petrov", "Osei", "Dubois", "Yilmaz",
		"Nguyen", "Schmidt", "Costa", "Bianchi", "Kim",
	}
	aiCustomers = []string{
		"Northwind", "Globex", "Initech", "Umbrella Health", "Stark Logistics", "Wayne Foods", "Acme Retail",
		"Hooli", "Vandelay Imports", "Soylent Labs", "Tyrell Systems", "Cyberdyne", "Wonka Confections",
		"Oceanic Air", "Gringotts Bank", "Pied Piper", "Monarch Telecom", "Blue Sun", "Aperture Science",
		"Duff Beverages", "Massive Dynamic", "Virtucon", "Oscorp", "Dunder Mifflin", "Prestige Worldwide",
		"Sterling Cooper", "Bluth Homes", "Nakatomi Trading", "Kerb Energy", "Lumon Industries",
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

// aiText draws one post's text: one to three sentences.
func aiText(rng *rand.Rand) string {
	person := func() string {
		return aiFirstNames[rng.IntN(len(aiFirstNames))] + " " + aiLastNames[rng.IntN(len(aiLastNames))]
	}
	customer := func() string { return aiCustomers[rng.IntN(len(aiCustomers))] }
	text := fmt.Sprintf(aiSentences[rng.IntN(len(aiSentences))], aiTopics[rng.IntN(len(aiTopics))], customer(), person(), 2+rng.IntN(98))
	for range rng.IntN(3) {
		if rng.IntN(2) == 0 {
			text += " " + fmt.Sprintf(aiAsides[rng.IntN(len(aiAsides))], person(), 2+rng.IntN(98), customer())
		} else {
			text += " " + fmt.Sprintf(aiSentences[rng.IntN(len(aiSentences))], aiTopics[rng.IntN(len(aiTopics))], customer(), person(), 2+rng.IntN(98))
		}
	}
	return text
}

func aiSearchBench(ctx context.Context, selected map[string]bool, cfg config.Config, d *app.Database, log *slog.Logger) (err error) {
	if !selected["ai-first-line"] {
		return nil
	}
	if *aiPostsN < 1 {
		return fmt.Errorf("ai-first-line: -ai-posts must be positive")
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

	// Embeddings as agora dev has them: AGORA_EMBEDDINGS_*, else the local
	// sentence model behind the loopback embeddings API and its cache; cfg
	// then names them for the projection and the API alike. The word
	// vectors would measure another product, so they are refused.
	cfg.Embeddings = aiEnvConfig().Embeddings
	emb, err := app.StartEmbeddings(&cfg, log)
	if err != nil {
		return fmt.Errorf("ai-first-line: %w", err)
	}
	defer emb.Close()
	if k := emb.Embedder.Kind; k != app.EmbedderModel && k != app.EmbedderAPI {
		return fmt.Errorf("ai-first-line: embeds with %s, not the sentence model (%s): scripts/install-deps.sh sentencemodel", k, emb.Embedder.Fallback)
	}
	// The store lives in a data folder of its own, so that MatchEmbedder
	// finds it (and its record of the embedder) where agora dev would.
	storeCfg := cfg
	storeCfg.DataDir = filepath.Join(cfg.DataDir, "ai-bench")
	store, err := app.OpenSearch(ctx, storeCfg)
	if err != nil {
		return fmt.Errorf("ai-first-line: %w", err)
	}
	defer store.Close()
	rng := rand.New(rand.NewPCG(aiSeed, aiSeed))
	start := time.Now()
	distinct, err := aiIndex(ctx, store, rng, *aiPostsN, forumID, channelID, communityID, authors)
	if err != nil {
		return fmt.Errorf("ai-first-line: index: %w", err)
	}
	indexed := time.Since(start)
	start = time.Now()
	if err := aiEmbed(ctx, storeCfg, d, store, log); err != nil {
		return fmt.Errorf("ai-first-line: embed: %w", err)
	}
	embedded := time.Since(start)
	cache := "no cache"
	if s, ok := emb.CacheStats(); ok {
		cache = fmt.Sprintf("%s texts embedded by the model, %s answered by the on-disk cache", thousands(s.Misses), thousands(s.Hits))
	}

	// A second API over the same database, reading this store and
	// embedding questions as its posts were; the configuration has no
	// language model, so answers are extractive.
	srv, err := app.NewAPI(cfg, d.DB, log, app.WithSearch(store), app.WithEmbeddings(emb))
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
	model := emb.Embedder.Model
	fmt.Printf("ai search data: %s posts and comments (%s distinct texts) of forum %q indexed straight into an embedded store in %.1f s; their vectors (%s) in %.1f s (%.0f texts/s): %s\n",
		thousands(int64(*aiPostsN)), thousands(int64(distinct)), feedForum, indexed.Seconds(), model, embedded.Seconds(),
		float64(*aiPostsN)/embedded.Seconds(), cache)

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
	// The API runs in this process: the profile is of its handling.
	stopProfile, err := startProfile(*aiProfile)
	if err != nil {
		return fmt.Errorf("ai-first-line: %w", err)
	}
	defer stopProfile()
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
	stopProfile()
	f, w := newResult(first, time.Since(wall)), newResult(whole, time.Since(wall))
	mode := fmt.Sprintf("sequential, extractive, hybrid retrieval (keywords + %s vectors), %s posts", model, thousands(int64(*aiPostsN)))
	fmt.Printf("%-48s p50 %6.2f ms  p95 %6.2f ms  p99 %6.2f ms  (n=%d, %s)\n",
		"AI search, first NDJSON line:", ms(f.p(50)), ms(f.p(95)), ms(f.p(99)), f.n(), mode)
	fmt.Printf("%-48s p50 %6.2f ms  p95 %6.2f ms  (posts retrieved for %d of %d questions, cited by %d answers)\n",
		"AI search, whole answer (stored):", ms(w.p(50)), ms(w.p(95)), found, aiQuestions, cited)
	fmt.Printf("ai-first-line target: p95 <= 150 ms (%s)\n", verdict(f.p(95) <= 150*time.Millisecond))
	if found < aiQuestions/2 {
		return fmt.Errorf("ai-first-line: posts were retrieved for only %d of %d questions", found, aiQuestions)
	}
	return nil
}

// aiIndex upserts n documents into the store, without vectors: posts,
// and a fifth of comments under them, by the forum's members, over the
// last 90 days. It answers how many distinct texts they have.
func aiIndex(ctx context.Context, store search.Store, rng *rand.Rand, n int, forumID, channelID, communityID string, authors []string) (int, error) {
	now := time.Now().UnixMilli()
	step := int64(90*24*time.Hour/time.Millisecond) / int64(n)
	docs := make([]search.Post, 0, n)
	texts := make(map[string]bool, n)
	var threads []string
	for i := range n {
		id := guuid.Must(guuid.NewV7()).String()
		text := aiText(rng)
		texts[text] = true
		p := search.Post{
			ID: id, Kind: "post", ThreadID: id, ChannelID: channelID, ForumID: forumID, CommunityID: communityID,
			AuthorID: authors[rng.IntN(len(authors))], Text: text, Hashtags: []string{},
			ReaderIDs: []string{}, CreatedAt: now - int64(n-i)*step,
		}
		if len(threads) > 0 && i%5 == 0 {
			p.Kind, p.ThreadID = "comment", threads[rng.IntN(len(threads))]
		} else {
			threads = append(threads, id)
		}
		docs = append(docs, p)
	}
	for i := 0; i < len(docs); i += 5000 {
		if err := store.Posts().Upsert(ctx, docs[i:min(i+5000, len(docs))]...); err != nil {
			return 0, err
		}
	}
	return len(texts), store.Posts().Wait(ctx)
}

// aiEmbed gives the store's posts their vectors the way agora dev does
// when it starts on posts embedded by no model or another: the search
// projection built with cfg's embedder, and app.MatchEmbedder, which
// re-embeds every post through it.
func aiEmbed(ctx context.Context, cfg config.Config, d *app.Database, store search.Store, log *slog.Logger) error {
	embed, err := app.NewEmbedder(cfg)
	if err != nil {
		return err
	}
	h, err := searchindex.New(store, d.Pool, log, searchindex.WithEmbedder(embed))
	if err != nil {
		return err
	}
	return app.MatchEmbedder(ctx, cfg, []projections.Handler{h}, log)
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
