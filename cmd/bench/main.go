// Command bench measures Agora over loopback HTTP and prints its figures.
//
//	go run ./cmd/bench [-duration 5s] [-only signin-seq,signin-par,read]
//
// It starts the product the way `agora dev` does — a private Postgres in a
// temporary folder, migrations, demo data, the API on 127.0.0.1:0 — and
// measures it with a keep-alive HTTP client:
//
//	signin-seq  200 sequential sign-ins (after 10 warm-up calls)
//	signin-par  200 sign-ins from 4 concurrent workers
//	read        GET /api/tokens/decode with a bearer token, 8 workers
//	communities the community list of a member of 200 communities, default
//	            and filtered and sorted, 4 workers (see communities.go)
//	peers       the private chat's peers list of a member of a community of
//	            10,000 members, a first and a deep page, 4 workers (see
//	            peers.go)
//	pipeline-latency, pipeline-throughput
//	            the change pipeline into one projection, on both paths side
//	            by side (the relay and the embedded broker; Debezium on Kafka
//	            Connect and Kafka): commit-to-projection latency at 1,000
//	            changes/s, and the highest sustained changes/s, each run
//	            -pipeline-runs times (see pipeline.go)
//	feed        the feed page on a forum of 100,000 posts, API (open loop
//	            at 500 req/s, and 8 workers) beside bare SQL (see feed.go)
//	ai-quality  the AI search's evaluation: fresh questions (the test),
//	            the first held-out set and the team's (trained on;
//	            -ai-split), over the demo
//	            discussions and posts written for it; recall@5, MRR@10,
//	            right first citations, leaks and latency over -ai-runs
//	            runs, per answerer (see aiquality.go)
//	import      the member import of 10,000 CSV rows into a community
//	            and into the organization, in rows/s (see memberimport.go)
//	insights-ingest, insights-reports
//	            the insights warehouse on a private ClickHouse (and a
//	            Postgres of its own) with 10,000,000 generated fact rows:
//	            the analytics projection's ingest rate, and each report's
//	            p50/p95 through query/insights (see insights.go; no API)
//	search-index, search-members, search-posts
//	            the embedded search engine on 100,000 members and 1,000,000
//	            posts: Upsert throughput, member search and post search
//	            latency (see search.go; no Postgres, no API)
//	search-vectors
//	            the engine's nearest-neighbour graph on 1,000,000 synthetic
//	            clustered unit vectors of 384 dimensions: build time,
//	            memory, recall@10 against exact and query p50/p99 over 3
//	            builds, filtered walks against exact scans, and Vector
//	            queries through the engine at 100,000 posts (see vectors.go)
//	organizations
//	            an organization of 20,000 people: its people list (a first
//	            page, a keyword) and the organization list, 8 workers each
//	            (see organizations.go)
//	chat        private message delivery latency, POST /api/threads/private
//	            answered to the other member's hub socket, at 200 messages
//	            a second (open loop, after -warmup) over 1,000
//	            conversations, and whether that rate was sustained (see
//	            chat.go)
//	notifications
//	            notification fan-out: from committing posts that mention
//	            1,000 members (20 posts of 50 mentions, a post's most, at
//	            once) to the last of their notifications written by the
//	            notifications projection; and GET /api/notifications of a
//	            member with 10,000 notifications, 4 workers (see
//	            notifications.go)
//	crowd       N simulated members of the demo community, each with a hub
//	            socket, opening the home page and forums, reading, posting,
//	            commenting, reacting, searching and asking the AI search
//	            (one action every 5 s on average, 88% reads), N stepped up
//	            (-crowd-steps, -crowd-warmup, -crowd-window): the calls'
//	            average and p99, errors, post-to-sockets latency; beside
//	            them a few real Chromium browsers (-crowd-browsers, 3 by
//	            default) open the home page, timed until interactive; and
//	            the largest N with average <= 100 ms, p99 <= 2 s, no errors
//	            and the browsers' home page interactive within 1 s at p95
//	            (see crowd.go, crowd_browsers.go)
//	meetups-sfu a Meet Up of 25 participants on a private livekit-server,
//	            publishers simulated by server-side SDK clients (Opus and
//	            VP8 at 15 fps each, every one subscribed to all others):
//	            join-to-first-track p50/p95/max and the SFU's CPU (see
//	            meetups_sfu.go; no Postgres, no API)
//	meetups-join
//	            POST /api/meetings/join-token, 4,000 calls from 8 workers
//	            for a Meet Up within its grace window: p50, p99 (see
//	            meetups_join.go; tokens are signed locally, no LiveKit server)
//
// The sign-in rate limits are raised for the measurement, and the output
// says so. Everything is stopped and the folder removed at the end. When
// only insights, search or meetups-sfu benchmarks are selected, the
// product is not started.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	goruntime "runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"agora/app"
	"agora/app/seed"
	"agora/internal/plumbing/config"
)

// benchmarks are the names -only accepts, in the order they run.
var benchmarks = []string{"signin-seq", "signin-par", "read", "communities", "peers", "pipeline-latency", "pipeline-throughput", "ai-first-line", "ai-quality", "import", "organizations", "chat", "notifications", "meetups-join", "crowd", "feed",
	"insights-ingest", "insights-reports", "search-index", "search-members", "search-posts", "search-vectors", "meetups-sfu", "embed"}

// standalone lists the benchmarks that need neither the product's Postgres
// nor its API: the search engine's, and the warehouse's (which start
// servers of their own).
var standalone = map[string]bool{"search-index": true, "search-members": true, "search-posts": true, "search-vectors": true,
	"insights-ingest": true, "insights-reports": true, "meetups-sfu": true, "embed": true}

func main() {
	duration := flag.Duration("duration", 5*time.Second, "measuring time of the read benchmark")
	warmup := flag.Duration("warmup", time.Second, "warm-up time of the read benchmark")
	only := flag.String("only", "", "comma-separated benchmarks to run ("+strings.Join(benchmarks, ", ")+"); all when empty")
	verbose := flag.Bool("v", false, "log the product's warnings to stderr")
	flag.Parse()

	selected, err := selection(*only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	if _, err := crowdSteps(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	// The crowd runs late: what its browsers need is checked before the
	// first benchmark starts.
	if selected["crowd"] {
		if _, err := crowdBrowserNeeds(); err != nil {
			fmt.Fprintln(os.Stderr, "bench: crowd:", err)
			os.Exit(2)
		}
	}
	if !slices.Contains(aiSplits, *aiSplit) || *aiRuns < 1 { // see aiquality.go
		fmt.Fprintf(os.Stderr, "bench: -ai-split takes one of %v and -ai-runs at least 1\n", aiSplits)
		os.Exit(2)
	}
	if *duration <= 0 || *warmup < 0 {
		fmt.Fprintln(os.Stderr, "bench: -duration must be positive and -warmup not negative")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, selected, *duration, *warmup, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func selection(only string) (map[string]bool, error) {
	sel := map[string]bool{}
	if strings.TrimSpace(only) == "" {
		for _, b := range benchmarks {
			sel[b] = true
		}
		return sel, nil
	}
	for _, name := range strings.Split(only, ",") {
		name = strings.TrimSpace(name)
		known := false
		for _, b := range benchmarks {
			known = known || b == name
		}
		if !known {
			return nil, fmt.Errorf("-only: unknown benchmark %q (have %s)", name, strings.Join(benchmarks, ", "))
		}
		sel[name] = true
	}
	return sel, nil
}

func run(ctx context.Context, selected map[string]bool, duration, warmup time.Duration, verbose bool) error {
	fmt.Printf("agora bench — %s, %d CPUs (%s/%s, %s)\n", time.Now().Format("2006-01-02 15:04:05 MST"),
		goruntime.GOMAXPROCS(0), goruntime.GOOS, goruntime.GOARCH, goruntime.Version())
	product := false
	for name := range selected {
		product = product || !standalone[name]
	}
	if product {
		if err := runProduct(ctx, selected, duration, warmup, verbose); err != nil {
			return err
		}
	}
	// The insights and search benchmarks run after the product has
	// stopped, with the machine to themselves.
	if err := insightsBench(ctx, selected, quietLog(verbose)); err != nil {
		return err
	}
	if err := searchBench(ctx, selected); err != nil {
		return err
	}
	if err := vectorsBench(ctx, selected); err != nil { // see vectors.go
		return err
	}
	if err := embedBench(ctx, selected); err != nil { // see embed.go
		return err
	}
	return meetupsSFUBench(ctx, selected, verbose) // see meetups_sfu.go
}

// quietLog discards the product's logs, or with -v writes its warnings to
// stderr.
func quietLog(verbose bool) *slog.Logger {
	if verbose {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// runProduct starts the product and runs the benchmarks that measure it.
func runProduct(ctx context.Context, selected map[string]bool, duration, warmup time.Duration, verbose bool) (err error) {
	log := quietLog(verbose)

	// The data folder must be reachable by the unprivileged postgres user
	// when this runs as root.
	dir, err := os.MkdirTemp("", "agora-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		return err
	}

	cfg := config.Default()
	cfg.DataDir = dir
	cfg.Dev = true
	cfg.Addr = "127.0.0.1:0"
	cfg.LogLevel = "warn"
	defaultIP, defaultAccount := cfg.Auth.SignInPerIPPerMinute, cfg.Auth.SignInPerAccountPerMinute
	cfg.Auth.SignInPerIPPerMinute = 1e9
	cfg.Auth.SignInPerAccountPerMinute = 1e9
	defaultAI := cfg.AI.SearchesPerAccountPerMinute
	cfg.AI.SearchesPerAccountPerMinute = 1e9

	setupStart := time.Now()
	d, err := app.OpenDatabase(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := d.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	if err := app.Migrate(ctx, d.DB, log); err != nil {
		return err
	}
	if err := app.Seed(ctx, d.DB, cfg, log, app.SeedOptions{}); err != nil {
		return err
	}
	rooms, err := benchSFU()
	if err != nil {
		return err
	}
	srv, err := app.NewAPI(cfg, d.DB, log, app.WithSFU(rooms))
	if err != nil {
		return err
	}
	serveCtx, stopServer := context.WithCancel(ctx)
	addrc := make(chan net.Addr, 1)
	served := make(chan error, 1)
	go func() { served <- app.Serve(serveCtx, srv, cfg.Addr, func(a net.Addr) { addrc <- a }) }()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case err := <-served:
		stopServer()
		return fmt.Errorf("serve: %w", err)
	}
	// The server stops before the database (deferred above) closes.
	defer func() {
		stopServer()
		if serr := <-served; serr != nil && err == nil {
			err = fmt.Errorf("serve: %w", serr)
		}
	}()
	setup := time.Since(setupStart)

	c := newClient("http://" + addr.String())
	if err := c.ready(ctx); err != nil {
		return err
	}
	fmt.Printf("setup: private Postgres (initdb) + migrations + demo data + API in %.1f s; API on %s (loopback)\n", setup.Seconds(), addr)
	fmt.Printf("limits raised for measurement: sign-ins per minute per IP/per account %d/%d -> %d/%d, AI searches per account per minute %d -> %d; at most %d argon2id hashes at once (default)\n",
		defaultIP, defaultAccount, cfg.Auth.SignInPerIPPerMinute, cfg.Auth.SignInPerAccountPerMinute, defaultAI, cfg.AI.SearchesPerAccountPerMinute, cfg.Auth.MaxConcurrentHashes)
	fmt.Println()

	logins := seed.Logins()
	const hash = "argon2id m=19MiB t=2 p=1"
	if selected["signin-seq"] {
		r, err := signInSequential(ctx, c, logins, cfg.DemoPassword, 10, 200)
		if err != nil {
			return fmt.Errorf("signin-seq: %w", err)
		}
		fmt.Printf("%-48s p50 %7.1f ms  p99 %7.1f ms  mean %7.1f ms  (n=%d)\n",
			"sign-in ("+hash+"), sequential:", ms(r.p(50)), ms(r.p(99)), ms(r.mean()), r.n())
	}
	if selected["signin-par"] {
		r, err := signInConcurrent(ctx, c, logins, cfg.DemoPassword, 4, 200)
		if err != nil {
			return fmt.Errorf("signin-par: %w", err)
		}
		fmt.Printf("%-48s p50 %7.1f ms  p99 %7.1f ms  %7.1f sign-ins/s  (n=%d, %.2f s)\n",
			"sign-in ("+hash+"), 4 workers:", ms(r.p(50)), ms(r.p(99)), r.rate(), r.n(), r.wall.Seconds())
	}
	if selected["read"] {
		token, err := c.signIn(ctx, seed.MemberEmail, cfg.DemoPassword)
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		r, errs, err := readThroughput(ctx, c, token, 8, warmup, duration)
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		fmt.Printf("%-48s %8.0f req/s   p50 %6.2f ms  p99 %6.2f ms  (n=%d in %.1f s, %d errors)\n",
			"GET /api/tokens/decode (bearer), 8 workers:", r.rate(), ms(r.p(50)), ms(r.p(99)), r.n(), r.wall.Seconds(), errs)
		if errs > 0 {
			return fmt.Errorf("read: %d requests failed", errs)
		}
	}
	if err := communitiesBench(ctx, selected, c, d.Pool, cfg.DemoPassword, duration, warmup); err != nil {
		return err
	}
	if err := peersBench(ctx, selected, c, d.Pool, cfg.DemoPassword, duration, warmup); err != nil { // see peers.go
		return err
	}
	if err := pipelineBench(ctx, selected, cfg, d, duration, log); err != nil {
		return err
	}
	if err := aiSearchBench(ctx, selected, cfg, d, log); err != nil { // see aisearch.go
		return err
	}
	if err := aiQualityBench(ctx, selected, cfg, d, log); err != nil { // see aiquality.go
		return err
	}
	if err := memberImportBench(ctx, selected, c, d.Pool, cfg.DemoPassword); err != nil { // see memberimport.go
		return err
	}
	if err := organizationsBench(ctx, selected, c, d.Pool, cfg.DemoPassword, duration, warmup); err != nil { // see organizations.go
		return err
	}
	if err := chatBench(ctx, selected, cfg, d, c, duration, warmup, log); err != nil { // see chat.go
		return err
	}
	if err := notificationsBench(ctx, selected, cfg, d, c, duration, warmup, log); err != nil { // see notifications.go
		return err
	}
	if err := meetupsJoinBench(ctx, selected, c, d.Pool, cfg.DemoPassword); err != nil { // see meetups_join.go
		return err
	}
	if err := crowdBench(ctx, selected, cfg, d, c, log); err != nil { // see crowd.go
		return err
	}
	// The feed's 100,000 posts stay in the database (deleting them takes
	// longer than loading them): it runs after every benchmark whose
	// projections would first have to index them.
	if err := feedBench(ctx, selected, c, d.Pool, cfg.DemoPassword, duration, warmup); err != nil {
		return err
	}
	fmt.Println()
	fmt.Println("stopping: API, then Postgres")
	return nil
}
