package app

import (
	"context"
	"log/slog"
	"net"

	"agora/internal/adapters/sfu"
	"agora/internal/plumbing/config"
	"agora/internal/standins/sfuserver"
)

// SFU is the LiveKit server Meet Ups run on: LIVEKIT_URL's, or a local
// livekit-server that this process started.
type SFU struct {
	// Local is the local server, nil with LIVEKIT_URL.
	Local *sfuserver.Server
}

// StartSFU starts a local livekit-server under the data folder (livekit/)
// when LIVEKIT_URL is unset, and fills cfg.LiveKit with its URL and key
// pair so that everything built from cfg afterwards uses it; its webhooks
// go to the API at cfg.Addr. With LIVEKIT_URL set it starts nothing.
// agora dev calls it before building the API.
func StartSFU(ctx context.Context, cfg *config.Config, log *slog.Logger) (*SFU, error) {
	if cfg.LiveKit.Enabled() {
		return &SFU{}, nil
	}
	srv, err := sfuserver.Start(ctx, cfg.SFUDir(), WebhookURL(cfg.Addr), log)
	if err != nil {
		return nil, err
	}
	cfg.LiveKit = config.LiveKitConfig{URL: srv.URL(), APIKey: srv.APIKey(), APISecret: srv.APISecret()}
	return &SFU{Local: srv}, nil
}

// Close stops the local server, if any.
func (s *SFU) Close() error {
	if s.Local == nil {
		return nil
	}
	return s.Local.Close()
}

// WebhookURL is where a local SFU posts its webhooks to the API listening
// on addr: over loopback, whatever address the API listens on.
func WebhookURL(addr string) string { return loopbackURL(addr, sfu.WebhookPath) }

// loopbackURL is path of the API listening on addr, as this machine
// reaches it: over loopback when it listens on every address.
func loopbackURL(addr, path string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return ""
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + path
}

// NewSFUClient is the LiveKit client of cfg.LiveKit; nil (and no error)
// when no SFU is configured (agora api without LIVEKIT_URL), and Meet Ups
// then cannot be joined.
func NewSFUClient(cfg config.Config) (*sfu.Client, error) {
	if !cfg.LiveKit.Enabled() {
		return nil, nil
	}
	return sfu.New(sfu.Config{URL: cfg.LiveKit.URL, PublicURL: cfg.LiveKit.PublicURL, APIKey: cfg.LiveKit.APIKey, APISecret: cfg.LiveKit.APISecret})
}
