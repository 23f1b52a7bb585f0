package testenv

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"agora/internal/adapters/sfu"
	"agora/internal/plumbing/config"
	"agora/internal/standins/sfuserver"
)

// One livekit-server per test binary, started by the first API server that
// needs one (a test that sets no LIVEKIT_URL of its own) and stopped by
// Main: 0.15 s and about 60 MiB, idle between tests. Its webhooks go to
// sfuHooks, which hands each to the test binary's API servers.
var (
	sfuServer *sfuserver.Server
	sfuDir    string
	sfuErr    error
	sfuOnce   sync.Once
	sfuHooks  *webhookRelay
)

func startSFU() {
	sfuHooks = &webhookRelay{}
	sfuHooks.server = httptest.NewServer(sfuHooks)
	sfuDir, sfuErr = os.MkdirTemp("", "agora-test-livekit-")
	if sfuErr != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	sfuServer, sfuErr = sfuserver.Start(ctx, sfuDir, sfuHooks.server.URL+sfu.WebhookPath, log)
}

// stopSFU stops the shared server, if one was started.
func stopSFU() {
	if sfuServer != nil {
		_ = sfuServer.Close()
	}
	if sfuHooks != nil {
		sfuHooks.server.Close()
	}
	if sfuDir != "" {
		_ = os.RemoveAll(sfuDir)
	}
}

// sharedSFU is the configuration of the test binary's livekit-server,
// which it starts on first use.
func sharedSFU(t testing.TB) config.LiveKitConfig {
	t.Helper()
	sfuOnce.Do(startSFU)
	if sfuErr != nil {
		t.Fatalf("testenv: livekit: %v", sfuErr)
	}
	return config.LiveKitConfig{URL: sfuServer.URL(), APIKey: sfuServer.APIKey(), APISecret: sfuServer.APISecret()}
}

// SFU is a LiveKit client of e's SFU (the test binary's, unless the test
// configured another), to join rooms as server-side participants and look
// at what the API did there.
func (e *Env) SFU(t testing.TB) *sfu.Client {
	t.Helper()
	lk := e.Config.LiveKit
	c, err := sfu.New(sfu.Config{URL: lk.URL, PublicURL: lk.PublicURL, APIKey: lk.APIKey, APISecret: lk.APISecret})
	if err != nil {
		t.Fatalf("testenv: %v", err)
	}
	return c
}

// webhookRelay receives the shared SFU's webhooks and posts each, as it
// came, to the API servers of the test binary that use that SFU, the most
// recently started first, until one takes it: they share one database, so
// one of them recording it is what a deployment's load balancer would do.
type webhookRelay struct {
	server  *httptest.Server
	mu      sync.Mutex
	targets []string // API base URLs, oldest first
}

// add makes base a target until the returned function is called.
func (r *webhookRelay) add(base string) (remove func()) {
	r.mu.Lock()
	r.targets = append(r.targets, base)
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if i := slices.Index(r.targets, base); i >= 0 {
			r.targets = slices.Delete(r.targets, i, i+1)
		}
	}
}

func (r *webhookRelay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	targets := slices.Clone(r.targets)
	r.mu.Unlock()
	status := http.StatusServiceUnavailable // no API server is running
	for i := len(targets) - 1; i >= 0; i-- {
		fwd, err := http.NewRequestWithContext(req.Context(), http.MethodPost, targets[i]+sfu.WebhookPath, bytes.NewReader(body))
		if err != nil {
			continue
		}
		for _, h := range []string{"Authorization", "Content-Type"} {
			fwd.Header.Set(h, req.Header.Get(h))
		}
		resp, err := http.DefaultClient.Do(fwd)
		if err != nil {
			status = http.StatusBadGateway // it stopped meanwhile
			continue
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		status = resp.StatusCode
		if status < 300 {
			break
		}
	}
	w.WriteHeader(status)
}
