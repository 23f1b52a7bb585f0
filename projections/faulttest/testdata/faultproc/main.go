// Command faultproc is the process the fault tests kill: the agora
// binary's relay, projector and dev roles, built from the same runtime
// functions, with a counting projection registered over the table named by
// FAULT_TABLE.
//
//	faultproc relay | projector | dev
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	"agora/app"
	"agora/internal/plumbing/config"
	"agora/projections"
	"agora/projections/projectiontest"
)

func main() {
	cfg := config.Default()
	if errs := cfg.FromEnv(nil); len(errs) > 0 {
		fmt.Fprintln(os.Stderr, errs)
		os.Exit(2)
	}
	cfg.Dev = os.Args[1] == "dev"
	if err := cfg.Validate(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1], cfg, log); err != nil {
		log.Error("faultproc failed", "err", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, role string, cfg config.Config, log *slog.Logger) error {
	d, err := app.OpenDatabase(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer d.Close() //nolint:errcheck
	if err := app.Migrate(ctx, d.DB, log); err != nil {
		return err
	}
	counting := func() ([]projections.Handler, error) {
		h, err := projectiontest.NewCounting(ctx, d.Pool, "fault_"+os.Getenv("FAULT_TABLE"), "public."+os.Getenv("FAULT_TABLE"))
		return []projections.Handler{h}, err
	}
	switch role {
	case "relay":
		return app.RunRelay(ctx, cfg, d, log)
	case "projector":
		hs, err := counting()
		if err != nil {
			return err
		}
		return app.RunProjector(ctx, cfg, hs, log)
	case "dev":
		hs, err := counting()
		if err != nil {
			return err
		}
		reg := app.NewRegistry()
		pipe, err := app.StartPipeline(ctx, cfg, d.URL, log, app.PipelineOptions{Relay: true, Projections: hs, Registry: reg})
		if err != nil {
			return err
		}
		defer pipe.Close()
		srv, err := app.NewAPI(cfg, d.DB, log, app.WithRegistry(reg))
		if err != nil {
			return err
		}
		return app.Serve(ctx, srv, cfg.Addr, func(a net.Addr) { fmt.Fprintln(io.Writer(os.Stdout), "ready", a) })
	}
	return fmt.Errorf("unknown role %q", role)
}
