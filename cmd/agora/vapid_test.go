package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDevKeepsItsVAPIDPair: agora dev makes a VAPID key pair in its data
// folder on the first start and uses the same one on the next, so the
// browsers' subscriptions outlive a restart; other commands make none.
func TestDevKeepsItsVAPIDPair(t *testing.T) {
	for _, k := range []string{"AGORA_VAPID_PUBLIC_KEY", "AGORA_VAPID_PRIVATE_KEY", "AGORA_VAPID_SUBJECT"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	dir := t.TempDir()
	first, err := loadConfig("dev", []string{"--data", dir})
	if err != nil {
		t.Fatal(err)
	}
	if !first.Push.Enabled() || first.Push.Subject == "" {
		t.Fatalf("push config %+v", first.Push)
	}
	if _, err := os.Stat(filepath.Join(dir, "vapid.json")); err != nil {
		t.Fatal(err)
	}
	again, err := loadConfig("dev", []string{"--data", dir})
	if err != nil || again.Push != first.Push {
		t.Fatalf("second start: %+v %v, first %+v", again.Push, err, first.Push)
	}

	other := t.TempDir()
	api, err := loadConfig("migrate", []string{"--data", other})
	if err != nil {
		t.Fatal(err)
	}
	if api.Push.Enabled() {
		t.Fatal("agora migrate made a key pair")
	}
	if _, err := os.Stat(filepath.Join(other, "vapid.json")); !os.IsNotExist(err) {
		t.Fatalf("vapid.json outside dev: %v", err)
	}
}
