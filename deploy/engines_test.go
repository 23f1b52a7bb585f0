package deploy_test

import (
	"net"
	"os"
	"regexp"
	"strings"
	"testing"

	"agora/internal/plumbing/config"
	"agora/internal/standins/kafkaserver"
)

// TestEngineVersions holds the versions deploy/ names to the ones the
// real-engines tests run (kafkaserver's constants) and the installer
// fetches (scripts/install-deps.sh), so that what is tested is what is
// deployed.
func TestEngineVersions(t *testing.T) {
	raw, err := os.ReadFile("../scripts/install-deps.sh")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"KAFKA_VERSION":    kafkaserver.KafkaVersion,
		"CONNECT_VERSION":  kafkaserver.ConnectVersion,
		"DEBEZIUM_VERSION": kafkaserver.DebeziumVersion,
	} {
		m := regexp.MustCompile(`(?m)^` + name + `=(\S+)$`).FindSubmatch(raw)
		if m == nil {
			t.Errorf("scripts/install-deps.sh sets no %s", name)
		} else if string(m[1]) != want {
			t.Errorf("scripts/install-deps.sh installs %s=%s, the tests run %s", name, m[1], want)
		}
	}

	p := load(t, nil)
	for svc, want := range map[string]string{
		"kafka":   "apache/kafka:" + kafkaserver.KafkaVersion,
		"connect": "quay.io/debezium/connect:" + kafkaserver.DebeziumVersion,
	} {
		if got := service(t, p, svc).Image; got != want {
			t.Errorf("%s image %q, want %q (the version the tests run)", svc, got, want)
		}
	}
	// Debezium's image brings its own Kafka Connect, which no tag names:
	// the README and the compose file say which, and must say the one the
	// tests run.
	connect := "Kafka Connect " + kafkaserver.ConnectVersion
	for _, file := range []string{"README.md", composeFile} {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(raw), connect) {
			t.Errorf("%s does not say the connect image runs %s", file, connect)
		}
		if old := regexp.MustCompile(`Kafka Connect \d+\.\d+\.\d+`).FindAllString(string(raw), -1); len(old) > 0 {
			for _, o := range old {
				if o != connect {
					t.Errorf("%s names %s; the tests run %s", file, o, connect)
				}
			}
		}
	}
}

// TestProjectorBesideDebezium: where Debezium captures, agora projector
// rebuild and check wait on Debezium's slot, and the projector's /metrics
// can be scraped from outside its container.
func TestProjectorBesideDebezium(t *testing.T) {
	p := load(t, nil)
	slot := readConnector(t)["slot.name"]
	for _, name := range []string{"api-1", "api-2", "projector"} {
		cfg := config.Default()
		cfg.FromEnv(func(key string) (string, bool) { return env(service(t, p, name), key) })
		if cfg.Kafka.RelaySlot != slot {
			t.Errorf("%s AGORA_RELAY_SLOT %q, want Debezium's slot %q (rebuild and check wait on it)", name, cfg.Kafka.RelaySlot, slot)
		}
		if name != "projector" {
			continue // an API node serves its metrics on the API's address
		}
		host, _, err := net.SplitHostPort(cfg.Kafka.MetricsAddr)
		if ip := net.ParseIP(host); err != nil || (host != "" && (ip == nil || !ip.IsUnspecified())) {
			t.Errorf("projector AGORA_METRICS_ADDR %q, want every interface of its container (0.0.0.0:PORT): its loopback reaches no scraper", cfg.Kafka.MetricsAddr)
		}
	}
}
