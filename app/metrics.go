package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"agora/projections"
)

// NewRegistry is a Prometheus registry with the Go runtime and process
// collectors.
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// ServeMetrics serves reg at /metrics on addr until ctx ends: the metrics
// listener of agora relay and agora projector, which have no API.
func ServeMetrics(ctx context.Context, addr string, reg *prometheus.Registry, log *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("metrics: listen %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	log.Info("metrics listening", "addr", ln.Addr().String())
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// sharedMetrics are the runner's metrics registered with reg, reusing the
// ones already there: in agora dev the API and the projector share reg.
func sharedMetrics(reg *prometheus.Registry) *projections.Metrics {
	m := projections.NewMetrics(nil)
	if reg == nil {
		return m
	}
	m.Lag = register(reg, m.Lag)
	m.Apply = register(reg, m.Apply)
	m.Delay = register(reg, m.Delay)
	m.Stages = register(reg, m.Stages)
	m.Changes = register(reg, m.Changes)
	m.Retries = register(reg, m.Retries)
	m.DeadLetters = register(reg, m.DeadLetters)
	m.Health = register(reg, m.Health)
	return m
}

func register[C prometheus.Collector](reg *prometheus.Registry, c C) C {
	if err := reg.Register(c); err != nil {
		var are prometheus.AlreadyRegisteredError
		if errors.As(err, &are) {
			if existing, ok := are.ExistingCollector.(C); ok {
				return existing
			}
		}
	}
	return c
}
