package main

import (
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fasthttp/websocket"

	"agora/app/seed"
	"agora/httpapi"
	"agora/internal/standins/kafkaserver"
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

// TestDevOnTheRealEngines: agora dev --engines real runs the product on
// Debezium's Postgres connector, Kafka Connect and a Kafka broker, and
// /readyz says so with their versions; a post one member writes through
// the API, as the browser does, reaches another member's hub socket, the
// forum's hashtag search (the search projection) and the forum admin's
// insights (the analytics projection, in ClickHouse).
func TestDevOnTheRealEngines(t *testing.T) {
	t.Parallel()
	agoraBinary(t)
	s := newDevServer(t)
	// Three JVMs start on top of everything plain agora dev starts: about
	// two minutes on a loaded 2-core machine, so the wait is long.
	p, took := s.start(8*time.Minute, "--engines", "real")
	t.Logf("ready in %v", took.Round(time.Millisecond))
	engines := s.readyEngines()
	for _, want := range []httpapi.Engine{
		{Role: "capture", Name: "Debezium", Version: kafkaserver.DebeziumVersion},
		{Role: "runtime", Name: "Kafka Connect", Version: kafkaserver.ConnectVersion},
		{Role: "broker", Name: "Kafka", Version: kafkaserver.KafkaVersion},
	} {
		if !slices.Contains(engines, want) {
			t.Errorf("/readyz's engines %+v lack %+v", engines, want)
		}
	}
	for _, e := range engines {
		if e.Name == "relay" || e.Name == "embedded broker" {
			t.Errorf("/readyz names %+v beside Debezium and Kafka", e)
		}
	}
	if !strings.Contains(p.stdout.String(), "Debezium "+kafkaserver.DebeziumVersion) {
		t.Errorf("agora dev's banner does not name Debezium:\n%s", p.stdout.String())
	}

	author, reader, admin := s.signIn(seed.MemberEmail), s.signIn(seed.ExpertEmail), s.signIn(seed.AdminEmail)
	forum, channel := s.forumNamed(author, "Welcome & Introductions")

	// The reader's browser: a ticket, then the socket, as the web app does.
	var ticket struct {
		Ticket string `json:"ticket"`
	}
	if code := s.do("POST", "/api/hub/tickets", reader, nil, &ticket); code != http.StatusCreated && code != http.StatusOK {
		t.Fatalf("POST /api/hub/tickets: %d", code)
	}
	conn, _, err := websocket.DefaultDialer.Dial("ws://"+s.addr+"/api/hub?ticket="+url.QueryEscape(ticket.Ticket), nil)
	if err != nil {
		t.Fatalf("dial the hub: %v", err)
	}
	defer conn.Close()
	created := make(chan string, 64)
	go func() {
		for {
			_, b, err := conn.ReadMessage()
			if err != nil {
				close(created)
				return
			}
			var e struct {
				Event string `json:"event"`
				Data  struct {
					Payload struct {
						ID string `json:"id"`
					} `json:"payload"`
				} `json:"data"`
			}
			if json.Unmarshal(b, &e) == nil && e.Event == "thread.created" {
				created <- e.Data.Payload.ID
			}
		}
	}()

	// A question, so that the insights list it by its id; a hashtag no
	// other post has, so that the search finds it alone.
	tag := "realengines" + strconv.FormatInt(time.Now().UnixNano(), 36)
	var post struct {
		ID string `json:"id"`
	}
	posted := time.Now()
	if code := s.do("POST", "/api/series/"+forum+"/threads", author,
		map[string]any{"channelId": channel, "type": "question", "raw": "Does a post reach everyone through Debezium and Kafka? #" + tag}, &post); code != http.StatusCreated && code != http.StatusOK {
		t.Fatalf("POST a question: %d", code)
	}

	// Waits are bounds for a loaded machine, not figures: cmd/bench
	// measures the pipeline.
	deadline := time.Now().Add(3 * time.Minute)
	timeout := time.After(time.Until(deadline))
	for got := false; !got; {
		select {
		case id, ok := <-created:
			if !ok {
				t.Fatalf("the reader's socket closed before the post came")
			}
			got = id == post.ID
		case <-timeout:
			t.Fatalf("the reader's socket did not get thread.created for post %s\nstderr:\n%s", post.ID, p.stderr.String())
		}
	}
	t.Logf("on the reader's socket %v after the post", time.Since(posted).Round(time.Millisecond))

	for {
		var tags struct {
			Tags []struct {
				Name string `json:"name"`
			} `json:"tags"`
		}
		if code := s.do("GET", "/api/hashtags?q="+tag, reader, nil, &tags); code == http.StatusOK && len(tags.Tags) == 1 && strings.EqualFold(tags.Tags[0].Name, tag) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the search never suggested #%s: %+v", tag, tags)
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("in the search %v after the post", time.Since(posted).Round(time.Millisecond))

	for {
		var asked struct {
			Result []struct {
				ThreadID string `json:"threadId"`
			} `json:"result"`
		}
		if code := s.do("GET", "/api/insights/list/asked-questions/"+forum+"?period=30&pageSize=100", admin, nil, &asked); code == http.StatusOK &&
			slices.ContainsFunc(asked.Result, func(q struct {
				ThreadID string `json:"threadId"`
			}) bool {
				return q.ThreadID == post.ID
			}) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the insights never listed question %s\nstderr:\n%s", post.ID, p.stderr.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("in the insights %v after the post", time.Since(posted).Round(time.Millisecond))
	s.stop(p)
}

// forumNamed is the forum named name among the caller's, and its main
// channel.
func (s *devServer) forumNamed(token, name string) (forum, channel string) {
	s.t.Helper()
	var communities struct {
		Results []struct {
			ID string `json:"id"`
		} `json:"results"`
	}
	if code := s.do("GET", "/api/communities", token, nil, &communities); code != http.StatusOK {
		s.t.Fatalf("GET /api/communities: %d", code)
	}
	for _, c := range communities.Results {
		var forums struct {
			Results []struct {
				ID            string `json:"id"`
				Name          string `json:"name"`
				MainChannelID string `json:"mainChannelId"`
			} `json:"results"`
		}
		if code := s.do("GET", "/api/series?communityId="+c.ID, token, nil, &forums); code != http.StatusOK {
			s.t.Fatalf("GET /api/series: %d", code)
		}
		for _, f := range forums.Results {
			if f.Name == name {
				return f.ID, f.MainChannelID
			}
		}
	}
	s.t.Fatalf("the caller reads no forum named %q", name)
	return "", ""
}
