package main

import (
	"os"
	"path/filepath"
	"syscall"
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
	// A data folder that does not exist yet, made under a umask that
	// would make it private: it must still be one the postgres system
	// user can traverse.
	dir := filepath.Join(t.TempDir(), "new", "var")
	old := syscall.Umask(0o077)
	first, err := loadConfig("dev", []string{"--data", dir})
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("data folder %s: %v, %v; want mode 0755", dir, fi, err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "vapid.json")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("vapid.json: %v, %v; want mode 0600", fi, err)
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
