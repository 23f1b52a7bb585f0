package main

import (
	"io"
	"io/fs"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"agora/httpapi"
)

// TestRelayAndProjectorNeedKafka: the standalone roles run beside a Kafka
// cluster and say so, at once, when KAFKA_BROKERS is missing.
func TestRelayAndProjectorNeedKafka(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"relay"}, {"projector"}, {"projector", "rebuild", "search"}, {"projector", "replay", "search"}} {
		p := startAgora(t, testEnv("DATABASE_URL=postgres://agora@127.0.0.1:1/agora"), args...)
		if code := p.waitExit(t, 15*time.Second); code != 1 {
			t.Fatalf("agora %v: exit status %d, want 1\nstderr:\n%s", args, code, p.stderr.String())
		}
		if !strings.Contains(p.stderr.String(), "KAFKA_BROKERS is required") {
			t.Fatalf("agora %v: stderr does not name KAFKA_BROKERS:\n%s", args, p.stderr.String())
		}
	}
}

func TestInvalidKafkaConfigIsReported(t *testing.T) {
	t.Parallel()
	p := startAgora(t, testEnv("KAFKA_BROKERS=kafka-without-port", "AGORA_KAFKA_PARTITIONS=0"), "projector")
	if code := p.waitExit(t, 15*time.Second); code != 2 {
		t.Fatalf("exit status %d, want 2\nstderr:\n%s", code, p.stderr.String())
	}
	for _, want := range []string{`KAFKA_BROKERS: "kafka-without-port" is not host:port`, "AGORA_KAFKA_PARTITIONS"} {
		if !strings.Contains(p.stderr.String(), want) {
			t.Errorf("stderr does not mention %q:\n%s", want, p.stderr.String())
		}
	}
}

// TestDevRunsThePipeline: agora dev runs the embedded broker, persisted
// under the data folder, and the relay, whose snapshot of the demo data
// lands in the change topics; /readyz names them; /metrics shows the
// relay's figures.
func TestDevRunsThePipeline(t *testing.T) {
	t.Parallel()
	agoraBinary(t)
	s := newDevServer(t)
	p, took := s.start(60 * time.Second)
	t.Logf("ready in %v", took.Round(time.Millisecond))
	// The quick default, and /readyz says which it is.
	if got, want := s.readyEngines(), []httpapi.Engine{{Role: "capture", Name: "relay"}, {Role: "broker", Name: "embedded broker"}}; !slices.Equal(got, want) {
		t.Errorf("/readyz's engines %+v, want %+v", got, want)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		var found bool
		_ = filepath.WalkDir(filepath.Join(s.data, "kafka"), func(path string, d fs.DirEntry, err error) error {
			if err == nil && strings.Contains(d.Name(), "agora.public.users") {
				found = true
			}
			return nil
		})
		metrics := ""
		if res, err := s.http.Get(s.url("/metrics")); err == nil {
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			metrics = string(b)
		}
		if found && strings.Contains(metrics, "agora_relay_messages_total") && !strings.Contains(metrics, "agora_relay_messages_total 0\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no change topic under %s/kafka (found %v) or no relay messages in /metrics\nstderr:\n%s", s.data, found, p.stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}

	// The insights: the analytics projection fills the local ClickHouse
	// from the demo data, and the API's reports read it.
	token := s.signIn("admin@demo.agora")
	var comms struct {
		Results []struct {
			Series []struct {
				ID string `json:"id"`
			} `json:"series"`
		} `json:"results"`
	}
	if code := s.do("GET", "/api/communities", token, nil, &comms); code != http.StatusOK || len(comms.Results) == 0 || len(comms.Results[0].Series) == 0 {
		t.Fatalf("GET /api/communities: %d %+v", code, comms)
	}
	forum := comms.Results[0].Series[0].ID
	for {
		var sum struct {
			UpdatedOn    *string `json:"updatedOn"`
			Interactions int     `json:"interactions"`
		}
		if code := s.do("GET", "/api/insights/summary/"+forum+"?period=90", token, nil, &sum); code == http.StatusOK && sum.UpdatedOn != nil {
			t.Logf("insights of a demo forum: %d interactions, updated on %s", sum.Interactions, *sum.UpdatedOn)
			break
		}
		if time.Now().After(deadline.Add(30 * time.Second)) {
			t.Fatalf("the insights of forum %s have no data\nstderr:\n%s", forum, p.stderr.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	s.stop(p)
}

// readyEngines are /readyz's engines.
func (s *devServer) readyEngines() []httpapi.Engine {
	s.t.Helper()
	var ready struct {
		Engines []httpapi.Engine `json:"engines"`
	}
	if code := s.do("GET", "/readyz", "", nil, &ready); code != http.StatusOK {
		s.t.Fatalf("GET /readyz: %d", code)
	}
	return ready.Engines
}
