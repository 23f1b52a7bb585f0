package main

import (
	"bufio"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"agora/app"
	"agora/app/seed"
	"agora/internal/plumbing/config"
	"agora/projections/searchindex"
	"agora/search"
)

// aiQualityBench is the AI search's evaluation (ai-quality): the team's
// questions (aiquality/*.txt) asked over the demo discussions (package
// seed) through the API, as the members who ask them, and what came back
// compared with the threads that answer each:
//
//	recall@5            the share of a question's answering threads among
//	                    the threads of the first five sources, averaged
//	MRR@10              1 / the rank of the first source of an answering
//	                    thread within ten, averaged
//	citation precision  the cited sources whose thread answers, over all
//	                    cited sources
//	leaks               the answers citing a post the asker may not read
//	                    (must be 0); the "unreadable" questions, whose only
//	                    answer is out of the asker's reach, look for them
//	first line, whole   the time to the stream's first NDJSON line and to
//	                    its end, p95
//
// The discussions go into the search store the way agora dev fills it:
// the relay's snapshot, the embedded broker and the search projection,
// with agora dev's embedder (AGORA_EMBEDDINGS_URL, else the local word
// vectors when installed). The questions are asked with keyword retrieval
// alone, then with hybrid retrieval when there is an embedder; the answers
// are the extractive answerer's and, when AGORA_AI_* names a model, the
// model's too (hybrid when there is an embedder).
//
//go:embed aiquality/*.txt
var aiQuestionFiles embed.FS

// aiQuestion is one question of the evaluation.
type aiQuestion struct {
	asker, forum, kind, text string
	// answers are the thread keys that answer it; none for "unreadable".
	answers []string
	where   string
}

// readAIQuestions reads the question files: "Q asker forum kind | text" then
// "A key, key" (or "A -"); "//" lines are comments.
func readAIQuestions() ([]aiQuestion, error) {
	var out []aiQuestion
	err := fs.WalkDir(aiQuestionFiles, "aiquality", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := aiQuestionFiles.ReadFile(path)
		if err != nil {
			return err
		}
		var q *aiQuestion
		for i, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSpace(line)
			where := fmt.Sprintf("%s:%d", path, i+1)
			switch {
			case line == "" || strings.HasPrefix(line, "//"):
			case strings.HasPrefix(line, "Q "):
				head, text, ok := strings.Cut(line[2:], "|")
				f := strings.Fields(head)
				if !ok || len(f) != 3 || strings.TrimSpace(text) == "" {
					return fmt.Errorf("%s: want \"Q asker forum kind | question\"", where)
				}
				q = &aiQuestion{asker: f[0], forum: f[1], kind: f[2], text: strings.TrimSpace(text), where: where}
			case strings.HasPrefix(line, "A "):
				if q == nil {
					return fmt.Errorf("%s: an answer line with no question", where)
				}
				if a := strings.TrimSpace(line[2:]); a != "-" {
					for _, k := range strings.Split(a, ",") {
						q.answers = append(q.answers, strings.TrimSpace(k))
					}
				}
				if (q.kind == "unreadable") != (len(q.answers) == 0) {
					return fmt.Errorf("%s: an unreadable question answers \"-\", every other one names threads", where)
				}
				out = append(out, *q)
				q = nil
			default:
				return fmt.Errorf("%s: want a Q or an A line", where)
			}
		}
		if q != nil {
			return fmt.Errorf("%s: a question with no answer line", q.where)
		}
		return nil
	})
	return out, err
}

// aiAskers are the demo logins the questions name.
var aiAskers = map[string]string{"member": seed.MemberEmail, "expert": seed.ExpertEmail, "admin": seed.AdminEmail}

func aiQualityBench(ctx context.Context, selected map[string]bool, cfg config.Config, d *app.Database, log *slog.Logger) (err error) {
	if !selected["ai-quality"] {
		return nil
	}
	questions, err := readAIQuestions()
	if err != nil {
		return fmt.Errorf("ai-quality: %w", err)
	}
	start := time.Now()
	if err := app.SeedDiscussions(ctx, d.DB, cfg, log); err != nil {
		return fmt.Errorf("ai-quality: %w", err)
	}
	ids, err := seed.DiscussionThreadIDs(ctx, d.Pool)
	if err != nil {
		return fmt.Errorf("ai-quality: %w", err)
	}
	threads := map[string]string{}
	for k, id := range ids {
		threads[k] = id.String()
	}
	// Embeddings as agora dev has them: AGORA_EMBEDDINGS_*, else the local
	// word vectors (cfg then names the local server).
	cfg.Embeddings = aiEnvConfig().Embeddings
	emb, err := app.StartEmbeddings(&cfg, log)
	if err != nil {
		return fmt.Errorf("ai-quality: %w", err)
	}
	defer emb.Close()
	store, err := search.OpenEmbedded(filepath.Join(cfg.DataDir, "ai-quality-search"))
	if err != nil {
		return fmt.Errorf("ai-quality: %w", err)
	}
	defer store.Close()
	docs, err := aiFillStore(ctx, cfg, d, store, log)
	if err != nil {
		return fmt.Errorf("ai-quality: %w", err)
	}
	embedder := "none (AGORA_EMBEDDINGS_URL unset and no word vectors installed: scripts/install-deps.sh wordvectors)"
	if cfg.Embeddings.Enabled() {
		embedder = cfg.Embeddings.Model + " at " + cfg.Embeddings.URL
	}
	fmt.Printf("ai-quality data: the demo discussions (%d threads) seeded and %d documents indexed by the search projection in %.1f s; embedder: %s; %d questions\n",
		len(threads), docs, time.Since(start).Seconds(), embedder, len(questions))

	keyword := cfg
	keyword.Embeddings.URL, keyword.Embeddings.Model = "", ""
	runs := []struct {
		name string
		cfg  config.Config
	}{{"extractive answerer, keyword retrieval", keyword}}
	if cfg.Embeddings.Enabled() {
		runs = append(runs, struct {
			name string
			cfg  config.Config
		}{"extractive answerer, hybrid retrieval", cfg})
	}
	if model := aiModelConfig(cfg); model.AI.ModelProvider() != "" {
		runs = append(runs, struct {
			name string
			cfg  config.Config
		}{model.AI.ModelProvider() + ":" + model.AI.Model + " answerer", model})
	}
	for _, r := range runs {
		if err := aiEvaluate(ctx, r.name, r.cfg, d, store, log, questions, threads); err != nil {
			return fmt.Errorf("ai-quality: %s: %w", r.name, err)
		}
	}
	return nil
}

// aiEnvConfig is the configuration the environment gives; the bench takes
// only the model's and the embeddings' settings from it, its other settings
// are its own.
func aiEnvConfig() config.Config {
	m := config.Default()
	_ = m.FromEnv(nil)
	return m
}

// aiModelConfig is cfg with the model AGORA_AI_* names, if any.
func aiModelConfig(cfg config.Config) config.Config {
	m := aiEnvConfig()
	out := cfg
	out.AI.Provider, out.AI.ModelURL, out.AI.Model, out.AI.APIKey, out.AI.MaxTokens =
		m.AI.Provider, m.AI.ModelURL, m.AI.Model, m.AI.APIKey, m.AI.MaxTokens
	return out
}

// aiFillStore runs the search projection from the relay's snapshot until
// the store holds a document for every thread and reply, and returns how
// many it holds.
func aiFillStore(ctx context.Context, cfg config.Config, d *app.Database, store search.Store, log *slog.Logger) (int, error) {
	pipe, err := app.StartPipeline(ctx, cfg, d.URL, log, app.PipelineOptions{Relay: true})
	if err != nil {
		return 0, err
	}
	defer pipe.Close()
	embed, err := app.NewEmbedder(cfg)
	if err != nil {
		return 0, err
	}
	h, err := searchindex.New(store, d.Pool, log, searchindex.WithEmbedder(embed))
	if err != nil {
		return 0, err
	}
	defer runProjection(ctx, cfg, pipe, log, h)()
	var want int
	var channels []string
	if err := d.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM threads t JOIN channels c ON c.id = t.channel_id WHERE c.series_id IS NOT NULL)
		+ (SELECT count(*) FROM replies r JOIN threads t ON t.id = r.thread_id JOIN channels c ON c.id = t.channel_id WHERE c.series_id IS NOT NULL),
		(SELECT array_agg(id::text) FROM channels WHERE series_id IS NOT NULL)`).Scan(&want, &channels); err != nil {
		return 0, err
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		// Every post of the forums' channels, whoever may read it.
		res, err := store.Posts().Search(ctx, search.Query{Limit: 1, Filter: search.Filter{
			search.ReadableBy("", channels...), search.NotIn("kind", search.KindMinutes)}})
		if err == nil && res.Total >= want {
			return res.Total, nil
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("the search projection indexed %d of %d posts in 2 minutes (%v)", res.Total, want, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// aiTurn is one asked question as the bench read it.
type aiTurn struct {
	searchID     string
	sources      []aiSource
	cited        []string
	answer       string
	first, whole time.Duration
}

type aiSource struct{ ID, ThreadID string }

// aiEvaluate asks every question with one answerer and prints its figures.
func aiEvaluate(ctx context.Context, name string, cfg config.Config, d *app.Database, store search.Store, log *slog.Logger,
	questions []aiQuestion, threads map[string]string) (err error) {
	srv, err := app.NewAPI(cfg, d.DB, log, app.WithSearch(store))
	if err != nil {
		return err
	}
	c, stop, err := serveAPI(ctx, srv)
	if err != nil {
		return err
	}
	defer func() {
		if serr := stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	tokens := map[string]string{}
	for who, email := range aiAskers {
		if tokens[who], err = c.signIn(ctx, email, cfg.DemoPassword); err != nil {
			return err
		}
	}
	channels, err := aiForumChannels(ctx, d)
	if err != nil {
		return err
	}
	byID := map[string]string{}
	for k, id := range threads {
		byID[id] = k
	}

	type tally struct {
		n                    int
		recall, rr           float64
		cited, citedRight    int
		leaks, noAnswer, all int
	}
	kinds := map[string]*tally{}
	total := &tally{}
	var first, whole []time.Duration
	var prev *aiTurn
	var misses []string
	for i, q := range questions {
		ch, ok := channels[q.forum]
		if !ok {
			return fmt.Errorf("%s: no demo forum %q", q.where, q.forum)
		}
		token, ok := tokens[q.asker]
		if !ok {
			return fmt.Errorf("%s: no demo login %q", q.where, q.asker)
		}
		searchID := ""
		if q.kind == "follow-up" {
			if prev == nil || i == 0 || questions[i-1].asker != q.asker || questions[i-1].forum != q.forum {
				return fmt.Errorf("%s: a follow-up must follow a question of the same asker and forum", q.where)
			}
			searchID = prev.searchID
		}
		t, err := aiAsk(ctx, c, token, ch, searchID, q.text)
		if err != nil {
			return fmt.Errorf("%s: %w", q.where, err)
		}
		prev = &t
		first, whole = append(first, t.first), append(whole, t.whole)
		leaked, err := aiLeaks(ctx, d, aiAskers[q.asker], t.cited)
		if err != nil {
			return err
		}
		for _, tl := range []*tally{total, kindTally(kinds, q.kind)} {
			tl.all++
			tl.leaks += leaked
			if len(t.cited) == 0 {
				tl.noAnswer++
			}
		}
		if q.kind == "unreadable" {
			continue
		}
		want := map[string]bool{}
		for _, k := range q.answers {
			id, ok := threads[k]
			if !ok {
				return fmt.Errorf("%s: no demo thread %q", q.where, k)
			}
			want[id] = true
		}
		// Recall counts the answering threads among the first five
		// sources' threads; the reciprocal rank, the first source of one.
		found := map[string]bool{}
		rr := 0.0
		for r, s := range t.sources {
			if r < 5 && want[s.ThreadID] {
				found[s.ThreadID] = true
			}
			if r < 10 && rr == 0 && want[s.ThreadID] {
				rr = 1 / float64(r+1)
			}
		}
		thread := map[string]string{}
		for _, s := range t.sources {
			thread[s.ID] = s.ThreadID
		}
		right := 0
		for _, id := range t.cited {
			if want[thread[id]] {
				right++
			}
		}
		recall := float64(len(found)) / float64(len(want))
		if recall < 1 || right < len(t.cited) {
			var got []string
			for _, s := range t.sources[:min(5, len(t.sources))] {
				got = append(got, byID[s.ThreadID])
			}
			misses = append(misses, fmt.Sprintf("  %s [%s] %q\n    want %v, top 5 %v, cited %d of which %d right: %.120q",
				q.where, q.kind, q.text, q.answers, got, len(t.cited), right, t.answer))
		}
		for _, tl := range []*tally{total, kindTally(kinds, q.kind)} {
			tl.n++
			tl.recall += recall
			tl.rr += rr
			tl.cited += len(t.cited)
			tl.citedRight += right
		}
	}
	f, w := newResult(first, 0), newResult(whole, 0)
	precision := func(t *tally) float64 {
		if t.cited == 0 {
			return 0
		}
		return float64(t.citedRight) / float64(t.cited)
	}
	fmt.Printf("\nAI search quality, %s, %d questions (%d with answering threads):\n", name, total.all, total.n)
	fmt.Printf("  %-34s %5.3f   (target >= 0.9: %s)\n", "recall@5:", total.recall/float64(total.n), verdict(total.recall/float64(total.n) >= 0.9))
	fmt.Printf("  %-34s %5.3f\n", "MRR@10:", total.rr/float64(total.n))
	fmt.Printf("  %-34s %5.3f   (%d of %d cited sources; target >= 0.9: %s)\n", "citation precision:", precision(total), total.citedRight, total.cited, verdict(precision(total) >= 0.9))
	fmt.Printf("  %-34s %d of %d answers   (target 0: %s)\n", "answers citing an unreadable post:", total.leaks, total.all, verdict(total.leaks == 0))
	fmt.Printf("  %-34s p50 %6.2f ms  p95 %6.2f ms   (target p95 <= 150 ms: %s)\n", "first NDJSON line:", ms(f.p(50)), ms(f.p(95)), verdict(f.p(95) <= 150*time.Millisecond))
	fmt.Printf("  %-34s p50 %6.2f ms  p95 %6.2f ms\n", "whole answer (stored):", ms(w.p(50)), ms(w.p(95)))
	var names []string
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		t := kinds[k]
		if t.n == 0 {
			fmt.Printf("  %-14s n=%-3d no answer (nothing cited) %d of %d, leaks %d\n", k, t.all, t.noAnswer, t.all, t.leaks)
			continue
		}
		fmt.Printf("  %-14s n=%-3d recall@5 %5.3f  MRR@10 %5.3f  citation precision %5.3f\n", k, t.n, t.recall/float64(t.n), t.rr/float64(t.n), precision(t))
	}
	if len(misses) > 0 {
		fmt.Printf("  questions not fully answered (%d):\n%s\n", len(misses), strings.Join(misses, "\n"))
	}
	return nil
}

func kindTally[T any](m map[string]*T, k string) *T {
	if m[k] == nil {
		m[k] = new(T)
	}
	return m[k]
}

// aiForumChannels maps each demo forum's file name to its main channel.
func aiForumChannels(ctx context.Context, d *app.Database) (map[string]string, error) {
	ds, err := seed.Discussions()
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, disc := range ds {
		var ch string
		if err := d.Pool.QueryRow(ctx, `SELECT c.id::text FROM series s JOIN channels c ON c.series_id = s.id AND c.kind = 'main'
			WHERE s.name = $1`, disc.Forum).Scan(&ch); err != nil {
			return nil, fmt.Errorf("forum %q: %w", disc.Forum, err)
		}
		out[strings.TrimSuffix(disc.File, ".txt")] = ch
	}
	return out, nil
}

// aiLeaks counts the cited posts the asker may not read: a thread or reply
// of a forum the asker is no active member of, or a Meet Up post with
// minutes the asker may not read (neither its creator nor invited). The
// answer names minutes by their Meet Up post, which every member of the
// forum sees, so such a post counts as a leak whether its own text or its
// minutes were cited: the count errs on the side of a leak.
func aiLeaks(ctx context.Context, d *app.Database, email string, cited []string) (int, error) {
	if len(cited) == 0 {
		return 0, nil
	}
	var n int
	err := d.Pool.QueryRow(ctx, `
		WITH asker AS (SELECT u.id FROM users u WHERE u.email_key = lower($1)),
		cited AS (
			SELECT t.id AS thread_id FROM threads t WHERE t.id::text = ANY($2)
			UNION ALL
			SELECT r.thread_id FROM replies r WHERE r.id::text = ANY($2))
		SELECT count(*) FROM cited c JOIN threads t ON t.id = c.thread_id
		WHERE NOT EXISTS (
			SELECT 1 FROM series_memberships sm JOIN profiles p ON p.id = sm.profile_id
			WHERE sm.series_id = t.series_id AND sm.status = 'active' AND p.user_id = (SELECT id FROM asker))
		OR EXISTS (
			SELECT 1 FROM meetings m WHERE m.thread_id = t.id AND m.minutes_content IS NOT NULL
			AND m.creator_id <> (SELECT id FROM asker)
			AND NOT EXISTS (SELECT 1 FROM meeting_invitees i WHERE i.meeting_id = m.id AND i.user_id = (SELECT id FROM asker)))`,
		email, cited).Scan(&n)
	return n, err
}

// aiAsk asks one question (a follow-up when searchID is set) and reads its
// stream to the end.
func aiAsk(ctx context.Context, c *client, token, channelID, searchID, q string) (aiTurn, error) {
	var t aiTurn
	path := "/api/ai/search/" + channelID
	if searchID != "" {
		path += "/" + searchID
	}
	req, err := http.NewRequestWithContext(ctx, "GET", c.base+path+"?q="+url.QueryEscape(q), nil)
	if err != nil {
		return t, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	t0 := time.Now()
	res, err := c.http.Do(req)
	if err != nil {
		return t, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		return t, fmt.Errorf("GET %s: %d %s", req.URL.Path, res.StatusCode, b)
	}
	br := bufio.NewReader(res.Body)
	for n := 0; ; n++ {
		line, err := br.ReadBytes('\n')
		if n == 0 && len(line) > 0 {
			t.first = time.Since(t0)
		}
		if len(line) > 0 {
			var e struct {
				Type      string     `json:"type"`
				SearchID  string     `json:"searchId"`
				Posts     []aiSource `json:"posts"`
				Answer    string     `json:"answer"`
				Citations []string   `json:"citations"`
				Done      bool       `json:"done"`
			}
			if err := json.Unmarshal(line, &e); err != nil {
				return t, fmt.Errorf("line %q: %w", line, err)
			}
			switch e.Type {
			case "threads":
				t.searchID, t.sources = e.SearchID, e.Posts
			case "answer":
				t.answer, t.cited = e.Answer, e.Citations
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return t, err
		}
	}
	t.whole = time.Since(t0)
	if t.searchID == "" {
		return t, fmt.Errorf("no threads event")
	}
	for i, s := range t.sources {
		if s.ThreadID == "" {
			t.sources[i].ThreadID = s.ID
		}
	}
	return t, nil
}
