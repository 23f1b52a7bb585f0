package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"agora/app"
	"agora/app/seed"
	"agora/internal/plumbing/config"
	"agora/live"
	"agora/projections"
	"agora/projections/notifications"
	"agora/projections/searchindex"
	"agora/search"
)

// The crowd benchmark: N simulated members of the demo community on
// loopback, each doing what a person in the web app does, one action every
// crowdThink on average, with a hub socket open the whole time, against one
// API node with the live pipeline of agora dev (the relay, the embedded
// broker, the realtime, search and notifications projections; not the
// insights warehouse, nor mail and push delivery). N steps up
// (-crowd-steps); each step adds members, lets them arrive over a warm-up
// (-crowd-warmup), then measures a window (-crowd-window). A step holds
// when the average of all its HTTP calls is at most crowdAvg, their p99 at
// most crowdP99, none failed and no post failed to reach a sampled socket
// (below); the run stops at the first step that does not hold, and the
// capacity is the last that held.
//
// Beside the calls, it measures how long a post takes from its commit (its
// createdOn, set in its transaction just before the commit, on the same
// clock: the API runs in this process) to the other members' sockets: the
// sockets of every crowdSample-th member time the posts they receive.
//
// The members make the calls the web app makes, without rendering
// anything. Beside them, a few real Chromium browsers (-crowd-browsers,
// each its own member; see crowd_browsers.go) open the home page again and
// again, and a step holds only when their loads of its window are
// interactive within crowdHomeP95 at p95.
//
// The load generator and the browsers share the two cores with the API,
// Postgres and the pipeline, so the capacity is that of the whole box,
// bench and browsers included; the CPU column says who used what.
const (
	crowdThink  = 5 * time.Second
	crowdSample = 10
	crowdAvg    = 100 * time.Millisecond
	crowdP99    = 2 * time.Second
	crowdGoal   = 400
	// crowdLost is how long after the window a post may still reach a
	// sampled socket before it counts as lost.
	crowdLost = 10 * time.Second
)

var (
	crowdStepsFlag  = flag.String("crowd-steps", "100,200,400,600,800,1000,1200,1400", "crowd benchmark: the numbers of members, in increasing order; the run stops at the first that fails")
	crowdWindowFlag = flag.Duration("crowd-window", 20*time.Second, "crowd benchmark: the measuring window of each step")
	crowdWarmupFlag = flag.Duration("crowd-warmup", 12*time.Second, "crowd benchmark: the warm-up of each step, over which its new members arrive")
	crowdRunsFlag   = flag.Int("crowd-runs", 1, "crowd benchmark: how many times the steps are run, each from no member online, for the verdict's spread across runs")
)

// crowdSteps parses -crowd-steps.
func crowdSteps() ([]int, error) {
	var steps []int
	for _, f := range strings.Split(*crowdStepsFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 || len(steps) > 0 && n <= steps[len(steps)-1] {
			return nil, fmt.Errorf("-crowd-steps: want increasing positive numbers, have %q", *crowdStepsFlag)
		}
		steps = append(steps, n)
	}
	if *crowdRunsFlag < 1 {
		return nil, fmt.Errorf("-crowd-runs must be at least 1")
	}
	if *crowdWindowFlag <= 0 || *crowdWarmupFlag < 0 || *crowdBrowsersFlag < 0 || *crowdBrowserPauseFlag < 0 {
		return nil, fmt.Errorf("-crowd-window must be positive, -crowd-warmup, -crowd-browsers and -crowd-browser-pause not negative")
	}
	return steps, nil
}

// crowdActions are a member's actions and their weights (out of 100). Reads
// are 88 of 100 actions and, as the home page and a forum make several
// calls, about 93% of the calls: a community where most people read. A
// forum is opened as the web app opens it, less the visit it records.
var crowdActions = []struct {
	kind   string
	weight int
	do     func(*crowdWorld, context.Context, *crowdMember) error
}{
	{"home", 10, (*crowdWorld).home},
	{"forum", 20, (*crowdWorld).openForum},
	{"next", 38, (*crowdWorld).nextPage},
	{"search", 15, (*crowdWorld).search},
	{"ai", 5, (*crowdWorld).askAI},
	{"post", 2, (*crowdWorld).post},
	{"comment", 4, (*crowdWorld).comment},
	{"react", 6, (*crowdWorld).react},
}

var (
	crowdReactions = []string{"liked", "liked", "liked", "loved", "smiled", "neutral", "disliked"}
	crowdSearches  = []string{"a", "ma", "jo", "crowd", "sa", "da", "li", "member 1"}
)

// crowdForum is an open forum of the community and its main channel.
type crowdForum struct{ id, channel string }

// crowdWorld is what the members share.
type crowdWorld struct {
	c         *client
	community string
	forums    []crowdForum
	calls     crowdCalls
	got       crowdReceipts
	dropped   atomic.Int64 // hub sockets not opened or closed by the server, in or out of a window
}

// crowdMember is one simulated member and where they are in the app.
type crowdMember struct {
	i         int
	id, token string
	rng       *rand.Rand
	forum     crowdForum
	cursor    string   // the next feed page's createdBefore; "" when no forum is open
	seen      []string // the posts of the last feed page read
}

func crowdBench(ctx context.Context, selected map[string]bool, cfg config.Config, d *app.Database, first *client, log *slog.Logger) error {
	if !selected["crowd"] {
		return nil
	}
	steps, err := crowdSteps()
	if err != nil {
		return err
	}
	window, warmup := *crowdWindowFlag, *crowdWarmupFlag
	script, err := crowdBrowserNeeds()
	if err != nil {
		return fmt.Errorf("crowd: %w", err)
	}
	browsers := *crowdBrowsersFlag
	start := time.Now()
	if err := app.SeedDiscussions(ctx, d.DB, cfg, log); err != nil {
		return fmt.Errorf("crowd: %w", err)
	}
	w := &crowdWorld{}
	// The browsers' members are made with the crowd's, after the largest
	// step's.
	most := steps[len(steps)-1]
	ids, emails, err := crowdLoad(ctx, d, w, most+browsers)
	if err != nil {
		return fmt.Errorf("crowd: load: %w", err)
	}

	// One API node with the pipeline's live part, and a search store of its
	// own (the first node holds the data folder's), filled by the search
	// projection from the relay's snapshot and then from the crowd's posts.
	store, err := search.OpenEmbedded(filepath.Join(cfg.DataDir, "crowd-search"))
	if err != nil {
		return err
	}
	defer store.Close()
	indexer, err := searchindex.New(store, d.Pool, log)
	if err != nil {
		return err
	}
	notes, err := notifications.New(d.Pool, log)
	if err != nil {
		return err
	}
	pipe, err := app.StartPipeline(ctx, cfg, d.URL, log, app.PipelineOptions{Relay: true, Projections: []projections.Handler{indexer, notes}})
	if err != nil {
		return err
	}
	defer pipe.Close()
	// The node's metrics, for the live path's stages (crowd_profile.go).
	reg := prometheus.NewRegistry()
	srv, err := app.NewAPI(cfg, d.DB, log, app.WithPipeline(pipe), app.WithRealtime(live.HubOptions{}, 0), app.WithSearch(store), app.WithRegistry(reg))
	if err != nil {
		return err
	}
	c, stop, err := serveAPI(ctx, srv)
	if err != nil {
		return fmt.Errorf("crowd: %w", err)
	}
	defer func() { _ = stop() }()
	// The members' calls share one pool, as large as they need: a browser
	// each would hold connections of its own.
	w.c = newPooledClient(c.base, 4096)
	if err := crowdReady(ctx, w, first, cfg.DemoPassword); err != nil {
		return fmt.Errorf("crowd: warm-up: %w", err)
	}
	fmt.Printf("crowd: members of %q in its %d open forums, relay + embedded broker + realtime, search and notifications projections, one API node (ready in %.1f s)\n",
		crowdCommunity, len(w.forums), time.Since(start).Seconds())
	fmt.Printf("crowd: each member holds a hub socket and does one action every %v on average (exponential think times): %s; AI searches are extractive (no model), read to the stream's end, their per-account limit raised as above; steps of %v warm-up (new members arrive) + %v measured\n",
		crowdThink, crowdMix(), warmup, window)
	var b *crowdBrowsers
	cpuHeader := "CPU (cores): this process (bench, API, pipeline), Postgres"
	if browsers > 0 {
		var how string
		b, how, err = startCrowdBrowsers(script, c.base, emails[most:], cfg.DemoPassword)
		if err != nil {
			return fmt.Errorf("crowd: browsers: %w", err)
		}
		defer b.stop()
		fmt.Printf("crowd: %d real browsers (%s; %s…%s), each its own member, open the home page every %v after the last load (a fresh navigation, their cache kept): interactive when the member's community card is drawn and a click on the Visited tab has taken effect, from navigation start; a step holds when their p95 is at most %v; their CPU (Node and Chromium) counts against the box\n",
			browsers, how, emails[most], emails[len(emails)-1], *crowdBrowserPauseFlag, crowdHomeP95)
		cpuHeader += ", browsers"
	}
	cpuHeader += ", other processes"

	clock := newCPUClock(ctx, d.Pool)
	var signingIn time.Duration // the sign-ins' time, outside the windows
	// run steps the members up from none online, once.
	run := func(r int) (crowdRun, error) {
		runCtx, cancel := context.WithCancel(ctx)
		var members sync.WaitGroup
		defer func() {
			cancel()
			members.Wait()
		}()
		w.dropped.Store(0)
		var out crowdRun
		for si, n := range steps {
			from := 0
			if si > 0 {
				from = steps[si-1]
			}
			t0 := time.Now()
			tokens, err := signInAll(ctx, first, emails[from:n], cfg.DemoPassword)
			if err != nil {
				return out, fmt.Errorf("crowd: sign in: %w", err)
			}
			signingIn += time.Since(t0)
			// New members arrive one after another over the first two thirds
			// of the warm-up, each opening its socket and the home page: a
			// crowd arriving at once makes a storm of presence events (each
			// arrival tells every peer online) that says little of the steady
			// state; the last third lets it settle.
			for k, token := range tokens {
				i := from + k
				m := &crowdMember{i: i, id: ids[i], token: token, rng: rand.New(rand.NewPCG(uint64(i), uint64(21+r)))}
				arrive := time.Duration(k) * warmup * 2 / 3 / time.Duration(len(tokens))
				members.Add(1)
				go func() {
					defer members.Done()
					w.live(runCtx, m, arrive)
				}()
			}
			select {
			case <-time.After(warmup):
			case <-ctx.Done():
				return out, ctx.Err()
			}
			stages0, err := readStages(reg)
			if err != nil {
				return out, fmt.Errorf("crowd: metrics: %w", err)
			}
			stopProfile, err := startStepProfile(n)
			if err != nil {
				return out, fmt.Errorf("crowd: profile: %w", err)
			}
			cpu0, browsersCPU0 := clock.read(), b.cpu()
			w.calls.start()
			w.got.start()
			if b != nil {
				b.start()
			}
			select {
			case <-time.After(window):
			case <-ctx.Done():
				return out, ctx.Err()
			}
			s := w.calls.stop(window)
			cpu1, browsersCPU1 := clock.read(), b.cpu()
			stopProfile()
			stages1, err := readStages(reg)
			if err != nil {
				return out, fmt.Errorf("crowd: metrics: %w", err)
			}
			s.stages = stages1.since(stages0)
			s.n = n
			s.cpuSelf, s.cpuPostgres = cores(cpu1.self-cpu0.self, window), cores(cpu1.postgres-cpu0.postgres, window)
			if b != nil {
				s.browsers, s.cpuBrowsers = b.end(ctx), cores(browsersCPU1-browsersCPU0, window)
			}
			// What the rest of the machine took: on a shared machine (a CI
			// run beside), a step may fail for want of cores it never had.
			s.cpuOthers = max(0, cores(cpu1.machine-cpu0.machine, window)-s.cpuSelf-s.cpuPostgres-s.cpuBrowsers)
			s.delivery, s.lost = w.got.stop(ctx, n)
			s.dropped = int(w.dropped.Load())
			fmt.Println(s.row())
			fmt.Println("       " + s.byKind())
			fmt.Println("       " + s.stages.row())
			if s.browsers != nil {
				fmt.Println("       " + s.browsers.row())
			}
			out.steps = append(out.steps, s)
			if why := s.fails(); why != "" {
				out.failed = fmt.Sprintf("%d failed: %s", n, why)
				break
			}
			out.capacity = n
		}
		return out, nil
	}
	holds := fmt.Sprintf("average ≤ %v, p99 ≤ %v, no errors", crowdAvg, crowdP99)
	if browsers > 0 {
		holds += fmt.Sprintf(", the browsers' home page interactive within %v at p95", crowdHomeP95)
	}
	var runs []crowdRun
	for r := range *crowdRunsFlag {
		if *crowdRunsFlag > 1 {
			fmt.Printf("crowd run %d of %d:\n", r+1, *crowdRunsFlag)
		}
		fmt.Printf("%6s %9s %8s %6s %8s %8s %7s   %-38s %s\n", "N", "actions/s", "calls/s", "reads", "avg ms", "p99 ms", "errors", "post to sockets p50/p99 ms (n, lost)", cpuHeader)
		res, err := run(r)
		if err != nil {
			return err
		}
		fmt.Println(res.summary(steps[0], holds))
		runs = append(runs, res)
	}
	if len(runs) > 1 {
		fmt.Print(crowdSpread(runs, steps))
	}
	reached := 0
	for _, r := range runs {
		if r.capacity >= crowdGoal {
			reached++
		}
	}
	fmt.Printf("crowd goal: at least %d members in every run (%d of %d runs: %s)\n", crowdGoal, reached, len(runs), verdict(reached == len(runs)))
	fmt.Printf("crowd: the members signed in once each, before their step's warm-up, in %.1f s in all\n", signingIn.Seconds())
	return nil
}

func cores(cpu, wall time.Duration) float64 { return cpu.Seconds() / wall.Seconds() }

// crowdMix describes crowdActions' weights.
func crowdMix() string {
	var parts []string
	for _, a := range crowdActions {
		parts = append(parts, fmt.Sprintf("%s %d%%", a.kind, a.weight))
	}
	return strings.Join(parts, ", ")
}

// crowdCommunity is the demo community the crowd joins.
const crowdCommunity = "Product Leadership Circle"

// crowdLoad makes n members of the community and of its open forums, with
// the demo member's password, and fills w's community and forums.
func crowdLoad(ctx context.Context, d *app.Database, w *crowdWorld, n int) (ids, emails []string, err error) {
	if err := d.Pool.QueryRow(ctx, `SELECT id::text FROM communities WHERE name = $1`, crowdCommunity).Scan(&w.community); err != nil {
		return nil, nil, err
	}
	rows, err := d.Pool.Query(ctx, `SELECT s.id::text, c.id::text FROM series s JOIN channels c ON c.series_id = s.id AND c.kind = 'main'
		WHERE s.community_id = $1 AND s.exclusivity = 'open' ORDER BY s.position`, w.community)
	if err != nil {
		return nil, nil, err
	}
	for rows.Next() {
		var f crowdForum
		if err := rows.Scan(&f.id, &f.channel); err != nil {
			return nil, nil, err
		}
		w.forums = append(w.forums, f)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	if len(w.forums) == 0 {
		return nil, nil, fmt.Errorf("%q has no open forum", crowdCommunity)
	}
	rows, err = d.Pool.Query(ctx, `WITH u AS (
			INSERT INTO users (id, email, email_key, password_hash, role, first_name, last_name)
			SELECT gen_random_uuid(), 'crowd' || i || '@bench.agora', 'crowd' || i || '@bench.agora',
			       (SELECT password_hash FROM users WHERE email = $2), 'user', 'Crowd', 'Member ' || i
			FROM generate_series(1, $3) AS i RETURNING id, email, first_name, last_name),
		p AS (
			INSERT INTO profiles (id, organization_id, user_id, email, email_key, first_name, last_name)
			SELECT gen_random_uuid(), c.organization_id, u.id, u.email, u.email, u.first_name, u.last_name
			FROM u, communities c WHERE c.id = $1 RETURNING id),
		m AS (
			INSERT INTO community_memberships (community_id, profile_id, role, status)
			SELECT $1, p.id, 'member', 'active' FROM p),
		s AS (
			INSERT INTO series_memberships (series_id, profile_id, role, status)
			SELECT f.id, p.id, 'member', 'active' FROM p, series f WHERE f.community_id = $1 AND f.exclusivity = 'open')
		SELECT id::text, email FROM u`, w.community, seed.MemberEmail, n)
	if err != nil {
		return nil, nil, err
	}
	byEmail := map[string]string{}
	for rows.Next() {
		var id, email string
		if err := rows.Scan(&id, &email); err != nil {
			return nil, nil, err
		}
		byEmail[email] = id
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	for i := 1; i <= n; i++ {
		email := fmt.Sprintf("crowd%d@bench.agora", i)
		ids, emails = append(ids, byEmail[email]), append(emails, email)
	}
	_, err = d.Pool.Exec(ctx, "ANALYZE")
	return ids, emails, err
}

// crowdReady waits for the pipeline: the search projection past the
// relay's snapshot (the crowd's members found by the member search), and
// the node's realtime projection delivering (a post of the demo member's
// reaching their own socket).
func crowdReady(ctx context.Context, w *crowdWorld, first *client, password string) error {
	token, err := first.signIn(ctx, seed.MemberEmail, password)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var found struct {
			Results []any `json:"results"`
		}
		if _, err := w.c.do(ctx, "GET", "/api/communities/"+w.community+"/member-search?q=crowd&limit=5", token, nil, &found); err != nil {
			return err
		}
		if len(found.Results) > 0 {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the search projection has not indexed the crowd's members in 2 minutes")
		}
		time.Sleep(200 * time.Millisecond)
	}
	conn, err := w.dial(ctx, token)
	if err != nil {
		return err
	}
	defer conn.Close()
	got := newReceipts()
	go got.read(conn, "") // the author's own socket counts here
	body, _ := json.Marshal(map[string]any{"channelId": w.forums[0].channel, "raw": "crowd warm-up post"})
	var p struct {
		ID string `json:"id"`
	}
	if _, err := w.c.do(ctx, "POST", "/api/series/"+w.forums[0].id+"/threads", token, body, &p); err != nil {
		return err
	}
	_, err = got.wait(ctx, p.ID, 2*time.Minute)
	return err
}

// crowdCalls counts the calls of a window: their times by kind, failures,
// reads and writes.
type crowdCalls struct {
	mu       sync.Mutex
	on       bool
	lat      map[string][]time.Duration
	failed   map[string]int
	firstErr error
	writes   int
}

func (c *crowdCalls) start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.on, c.lat, c.failed, c.firstErr, c.writes = true, map[string][]time.Duration{}, map[string]int{}, nil, 0
}

// add counts a call that ended now; calls outside a window are not
// counted, and a call started before it (d ago) is not either.
func (c *crowdCalls) add(kind string, write bool, d time.Duration, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.on {
		return
	}
	if err != nil {
		c.failed[kind]++
		if c.firstErr == nil {
			c.firstErr = err
		}
		return
	}
	c.lat[kind] = append(c.lat[kind], d)
	if write {
		c.writes++
	}
}

// crowdStep is one step's figures.
type crowdStep struct {
	n                    int
	window               time.Duration
	all                  result
	kinds                map[string]result
	failed               int
	firstErr             error
	writes               int
	delivery             result
	lost, dropped        int
	cpuSelf, cpuPostgres float64
	browsers             *crowdBrowserStep // nil without browsers
	cpuBrowsers          float64
	cpuOthers            float64
	stages               crowdStages // the live path's stages over the window
}

func (c *crowdCalls) stop(window time.Duration) crowdStep {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.on = false
	s := crowdStep{window: window, kinds: map[string]result{}, firstErr: c.firstErr, writes: c.writes}
	var all []time.Duration
	for kind, lat := range c.lat {
		all = append(all, lat...)
		s.kinds[kind] = newResult(lat, window)
	}
	for _, n := range c.failed {
		s.failed += n
	}
	s.all = newResult(all, window)
	return s
}

// homes is the browsers' home page figure of the step, after a "; ", or
// nothing without browsers.
func (s crowdStep) homes() string {
	if s.browsers == nil || s.browsers.interactive.n() == 0 {
		return ""
	}
	return fmt.Sprintf("; the browsers' home page interactive p50 %.0f ms, p95 %.0f ms (%d loads)",
		ms(s.browsers.interactive.p(50)), ms(s.browsers.interactive.p(95)), s.browsers.interactive.n())
}

// posts is the step's post-to-sockets latency.
func (s crowdStep) posts() string {
	if s.delivery.n() == 0 {
		return "no post of the window reached a sampled socket"
	}
	return fmt.Sprintf("post to the other members' sockets p50 %.1f ms, p99 %.1f ms", ms(s.delivery.p(50)), ms(s.delivery.p(99)))
}

func (s crowdStep) row() string {
	d := fmt.Sprintf("%.1f / %.1f (%d, %d)", ms(s.delivery.p(50)), ms(s.delivery.p(99)), s.delivery.n(), s.lost)
	reads := 0.0
	if s.all.n() > 0 {
		reads = 100 * float64(s.all.n()-s.writes) / float64(s.all.n())
	}
	verdict := "holds"
	if why := s.fails(); why != "" {
		verdict = "FAILS: " + why
	}
	cpu := fmt.Sprintf("%.2f, %.2f", s.cpuSelf, s.cpuPostgres)
	if s.browsers != nil {
		cpu += fmt.Sprintf(", %.2f", s.cpuBrowsers)
	}
	cpu += fmt.Sprintf(", %.2f", s.cpuOthers)
	return fmt.Sprintf("%6d %9.1f %8.1f %5.0f%% %8.1f %8.1f %7d   %-38s %s   %s",
		s.n, float64(s.n)/crowdThink.Seconds(), s.all.rate(), reads, ms(s.all.mean()), ms(s.all.p(99)), s.failed, d, cpu, verdict)
}

// byKind is the average and p99 of each kind of call.
func (s crowdStep) byKind() string {
	var parts []string
	for _, a := range append([]string{"hub"}, kindNames()...) {
		if r, ok := s.kinds[a]; ok {
			parts = append(parts, fmt.Sprintf("%s %.1f/%.1f (%d)", a, ms(r.mean()), ms(r.p(99)), r.n()))
		}
	}
	return "avg/p99 ms (calls): " + strings.Join(parts, " · ")
}

func kindNames() []string {
	var names []string
	for _, a := range crowdActions {
		names = append(names, a.kind)
	}
	return names
}

// fails says why the step does not hold, or "".
func (s crowdStep) fails() string {
	var why []string
	if s.failed > 0 {
		why = append(why, fmt.Sprintf("%d calls failed, first: %v", s.failed, s.firstErr))
	}
	if s.dropped > 0 {
		why = append(why, fmt.Sprintf("%d hub sockets failed or closed", s.dropped))
	}
	if s.lost > 0 {
		why = append(why, fmt.Sprintf("%d deliveries of posts to sampled sockets lost", s.lost))
	}
	if s.all.mean() > crowdAvg {
		why = append(why, fmt.Sprintf("average %.0f ms", ms(s.all.mean())))
	}
	if s.all.p(99) > crowdP99 {
		why = append(why, fmt.Sprintf("p99 %.2f s", s.all.p(99).Seconds()))
	}
	if s.browsers != nil {
		why = append(why, s.browsers.fails()...)
	}
	return strings.Join(why, "; ")
}

// crowdReceipts times the posts of a window to the sampled sockets.
type crowdReceipts struct {
	mu     sync.Mutex
	on     bool
	author map[string]int             // the window's posts and their authors
	lat    map[string][]time.Duration // each post's times to the sampled sockets
}

func (r *crowdReceipts) start() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on, r.author, r.lat = true, map[string]int{}, map[string][]time.Duration{}
}

// posted notes a post answered in the window.
func (r *crowdReceipts) posted(id string, author int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.on {
		r.author[id] = author
	}
}

func (r *crowdReceipts) add(id string, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lat != nil {
		r.lat[id] = append(r.lat[id], d)
	}
}

// stop waits up to crowdLost for the window's posts to reach every sampled
// socket of the n members but their authors', and returns the times and
// how many never arrived.
func (r *crowdReceipts) stop(ctx context.Context, n int) (result, int) {
	r.mu.Lock()
	r.on = false
	r.mu.Unlock()
	sampled := (n + crowdSample - 1) / crowdSample
	missing := func() int {
		r.mu.Lock()
		defer r.mu.Unlock()
		m := 0
		for id, author := range r.author {
			want := sampled
			if author%crowdSample == 0 {
				want--
			}
			m += max(0, want-len(r.lat[id]))
		}
		return m
	}
	deadline := time.Now().Add(crowdLost)
	for missing() > 0 && time.Now().Before(deadline) && sleep(ctx, 100*time.Millisecond) {
	}
	lost := missing()
	r.mu.Lock()
	defer r.mu.Unlock()
	var all []time.Duration
	for id := range r.author {
		all = append(all, r.lat[id]...)
	}
	r.lat = nil
	return newResult(all, 0), lost
}
