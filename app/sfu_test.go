package app

import (
	"strings"
	"testing"

	"agora/internal/plumbing/config"
)

func TestWebhookURL(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8080": "http://127.0.0.1:8080/api/livekit/webhook",
		"0.0.0.0:8080":   "http://127.0.0.1:8080/api/livekit/webhook",
		":9090":          "http://127.0.0.1:9090/api/livekit/webhook",
		"[::]:9090":      "http://127.0.0.1:9090/api/livekit/webhook",
		"[::1]:9090":     "http://[::1]:9090/api/livekit/webhook",
		"nonsense":       "",
	} {
		if got := WebhookURL(addr); got != want {
			t.Errorf("WebhookURL(%q) = %q, want %q", addr, got, want)
		}
	}
}

func TestNewSFUClient(t *testing.T) {
	c, err := NewSFUClient(config.Default())
	if c != nil || err != nil {
		t.Errorf("without LIVEKIT_URL: %v, %v", c, err)
	}
	cfg := config.Default()
	cfg.LiveKit = config.LiveKitConfig{URL: "http://livekit:7880", PublicURL: "wss://agora.example.org/livekit", APIKey: "agora", APISecret: strings.Repeat("s", 32)}
	c, err = NewSFUClient(cfg)
	if err != nil || c.PublicURL() != "wss://agora.example.org/livekit" {
		t.Fatalf("%v, %v", c, err)
	}
}
