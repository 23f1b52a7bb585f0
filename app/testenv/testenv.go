// Package testenv is the integration-test harness: one private Postgres per
// test binary (migrated and seeded once), and API servers started on
// loopback over it, each with the configuration a test asks for; and one
// local ClickHouse per test binary, with a migrated warehouse database per
// test (Warehouse); and one local LiveKit server (the SFU of Meet Ups) per
// test binary, which every API server uses unless a test sets its own
// LIVEKIT_URL (Env.SFU is a client of it); and one stripe-mock per test
// binary, the Stripe of every API server unless a test sets its own
// STRIPE_SECRET_KEY (Env.Config.Stripe has its webhook secret); and one
// change pipeline per test binary, with one search store it fills
// (StartPipeline, NewSearch). Tests are
// isolated by unique names (new addresses, new communities) rather than by
// cleaning up.
package testenv

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"agora/app"
	"agora/internal/plumbing/config"
	"agora/internal/plumbing/db"
	"agora/internal/standins/pgserver"
	"agora/search"
)

// Password is the demo password the harness seeds with.
const Password = "agora-demo"

var (
	shared  *cluster
	sharedE error
	once    sync.Once
)

type cluster struct {
	dir    string
	server *pgserver.Server
	db     *db.DB
	url    string
	// search is the store of servers started without one of their own
	// (New): nothing fills it, so their searches find nothing. NewSearch
	// starts a server on the store the binary's search projection fills.
	search search.Store
}

// Main runs the tests of a package and stops the cluster (and the change
// pipeline, the ClickHouse and LiveKit servers, if a test started them)
// afterwards. Call it from TestMain: func TestMain(m *testing.M) { testenv.Main(m) }.
func Main(m *testing.M) {
	code := m.Run()
	stopPipeline()
	if shared != nil {
		_ = shared.search.Close()
		shared.db.Close()
		_ = shared.server.Stop()
		_ = os.RemoveAll(shared.dir)
	}
	stopWarehouse()
	stopSFU()
	stopStripe()
	os.Exit(code)
}

// sharedCluster starts the binary's database on first use.
func sharedCluster(t testing.TB) {
	t.Helper()
	once.Do(func() { shared, sharedE = start() })
	if sharedE != nil {
		t.Fatalf("testenv: %v", sharedE)
	}
}

func start() (*cluster, error) {
	dir, err := os.MkdirTemp("", "agora-test-")
	if err != nil {
		return nil, err
	}
	// The server may run as the postgres user, which must reach the folder.
	if err := os.Chmod(dir, 0o755); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := pgserver.Start(ctx, dir+"/pg", log)
	if err != nil {
		return nil, err
	}
	if err := srv.CreateDatabase(ctx, "agora"); err != nil {
		return nil, err
	}
	d, err := db.Open(ctx, srv.URL("agora"), 32)
	if err != nil {
		return nil, err
	}
	cfg := Config()
	if err := app.Migrate(ctx, d, log); err != nil {
		return nil, err
	}
	if err := app.Seed(ctx, d, cfg, log, app.SeedOptions{}); err != nil {
		return nil, err
	}
	store, err := search.OpenEmbedded(dir + "/search")
	if err != nil {
		return nil, err
	}
	return &cluster{dir: dir, server: srv, db: d, url: srv.URL("agora"), search: store}, nil
}

// Config is the configuration test servers start from: dev mode (the dev
// mailbox) and limits high enough that tests signing in many times from one
// address are not throttled; rate-limit tests lower them.
func Config() config.Config {
	cfg := config.Default()
	cfg.Dev = true
	cfg.DemoPassword = Password
	cfg.LogLevel = "error"
	cfg.Auth.SignInPerIPPerMinute = 100000
	cfg.Auth.SignInPerAccountPerMinute = 100000
	cfg.Auth.ResetPerAccountPerHour = 100000
	cfg.MailLimits.InvitationsPerActorPerDay = 100000
	cfg.AI.SearchesPerAccountPerMinute = 100000
	return cfg
}

// Env is one API server over the shared database.
type Env struct {
	URL    string
	DB     *db.DB
	DBURL  string
	Config config.Config
}

// New starts an API server for t over the shared, seeded database. Options
// change the configuration before the server starts.
func New(t testing.TB, options ...func(*config.Config)) *Env {
	t.Helper()
	return serve(t, nil, options)
}

// AllowOutbound lets the server reach the tests' own servers on loopback
// (a page to preview, a push service, an identity provider), each by its
// exact address, as AGORA_OUTBOUND_ALLOW does; nothing else internal.
func AllowOutbound(addrs ...netip.AddrPort) func(*config.Config) {
	return func(c *config.Config) {
		for _, a := range addrs {
			c.OutboundAllow = strings.TrimPrefix(c.OutboundAllow+","+a.String(), ",")
		}
	}
}

// serve starts an API server built with apiOptions over the shared database.
func serve(t testing.TB, apiOptions []app.APIOption, options []func(*config.Config)) *Env {
	t.Helper()
	sharedCluster(t)
	cfg := Config()
	// Uploads land in the test binary's folder, not in ./var of the
	// package under test; a test that looks at the files sets its own.
	cfg.Blobs.Dir = filepath.Join(shared.dir, "blobs")
	for _, o := range options {
		o(&cfg)
	}
	// Meet Ups run on the test binary's livekit-server unless the test
	// names another.
	sharedLiveKit := !cfg.LiveKit.Enabled()
	if sharedLiveKit {
		cfg.LiveKit = sharedSFU(t)
	}
	// Payments run on the test binary's stripe-mock unless the test names
	// a Stripe account; checkouts go to the dev checkout page.
	if !cfg.Stripe.Enabled() {
		cfg.Stripe = sharedStripe(t, cfg.Stripe.GracePeriod)
	}
	// The server's own address is its public URL unless a test sets one.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("testenv: %v", err)
	}
	cfg.Addr = ln.Addr().String()
	if cfg.PublicURL == "" {
		cfg.PublicURL = "http://" + cfg.Addr
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	apiOptions = append([]app.APIOption{app.WithSearch(shared.search)}, apiOptions...)
	srv, err := app.NewAPI(cfg, shared.db, log, apiOptions...)
	if err != nil {
		ln.Close()
		t.Fatalf("testenv: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- app.ServeListener(ctx, srv, ln, func(a net.Addr) { addr <- a }) }()
	var a net.Addr
	select {
	case a = <-addr:
	case err := <-done:
		cancel()
		t.Fatalf("testenv: serve: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		<-done
	})
	cfg.Addr = a.String()
	if sharedLiveKit {
		t.Cleanup(sfuHooks.add("http://" + a.String()))
	}
	return &Env{URL: "http://" + a.String(), DB: shared.db, DBURL: shared.url, Config: cfg}
}

var unique atomic.Int64

// Unique returns a name no other call in this test binary returns, for
// addresses and titles that keep tests apart.
func Unique(prefix string) string {
	return fmt.Sprintf("%s-%d-%d", prefix, time.Now().UnixNano()%1e9, unique.Add(1))
}
