package deploy_test

// These tests validate deploy/ without a Docker engine: docker-compose.yml is
// loaded with the compose-spec loader (the library `docker compose` itself is
// built on), with an in-memory environment, and the resulting project is
// checked service by service. The connector JSON, the nginx and LiveKit
// configuration and the Dockerfile are checked against it.
//
// The tables at the top are the contract. Extend them when a feature adds a
// variable, a service or a connector setting.

import (
	"context"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
	"gopkg.in/yaml.v3"

	"agora/internal/plumbing/config"
)

// expectedServices are the services of the stack, no more and no fewer.
var expectedServices = []string{
	"postgres", "kafka", "connect", "connect-setup", "meilisearch",
	"clickhouse", "livekit", "migrate", "api-1", "api-2", "projector", "lb",
}

// agoraServices are the services that run the agora binary, with the
// subcommand each runs.
var agoraServices = map[string]string{
	"migrate":   "migrate",
	"api-1":     "api",
	"api-2":     "api",
	"projector": "projector",
}

// apiEnv is what `agora api` and `agora projector` are given: what
// internal/plumbing/config reads today, KAFKA_BROKERS for the change stream, and the
// variables the search, insights, Meet Up and billing features read.
var apiEnv = []string{
	"DATABASE_URL",
	"AGORA_ADDR",
	"AGORA_PUBLIC_URL",
	"AGORA_TRUSTED_PROXIES",
	"KAFKA_BROKERS",
	"MEILI_URL",
	"MEILI_MASTER_KEY",
	"CLICKHOUSE_URL",
	"LIVEKIT_URL",
	"LIVEKIT_PUBLIC_URL",
	"LIVEKIT_API_KEY",
	"LIVEKIT_API_SECRET",
	"STRIPE_SECRET_KEY",
	"STRIPE_WEBHOOK_SECRET",
}

// requiredEnv is the environment each agora service must have.
var requiredEnv = map[string][]string{
	"migrate":   {"DATABASE_URL", "CLICKHOUSE_URL"},
	"api-1":     apiEnv,
	"api-2":     apiEnv,
	"projector": apiEnv,
}

// nonEmptyEnv must not only be present but set (STRIPE_* and SMTP_* may be
// empty: the feature is then off).
var nonEmptyEnv = []string{
	"DATABASE_URL", "AGORA_ADDR", "AGORA_PUBLIC_URL", "AGORA_TRUSTED_PROXIES", "KAFKA_BROKERS",
	"MEILI_URL", "MEILI_MASTER_KEY", "CLICKHOUSE_URL", "LIVEKIT_URL",
	"LIVEKIT_PUBLIC_URL", "LIVEKIT_API_KEY", "LIVEKIT_API_SECRET",
}

// urlEnv names the variables that point at another service of the stack,
// with the service they must point at.
var urlEnv = map[string]string{
	"DATABASE_URL":   "postgres",
	"KAFKA_BROKERS":  "kafka",
	"MEILI_URL":      "meilisearch",
	"CLICKHOUSE_URL": "clickhouse",
	"LIVEKIT_URL":    "livekit",
}

// requiredDeps is, per service, the services it must wait for and how.
var requiredDeps = map[string]map[string]string{
	"connect": {
		"kafka":    types.ServiceConditionHealthy,
		"postgres": types.ServiceConditionHealthy,
	},
	"connect-setup": {
		"connect": types.ServiceConditionHealthy,
		"migrate": types.ServiceConditionCompletedSuccessfully,
	},
	"migrate":   {"postgres": types.ServiceConditionHealthy, "clickhouse": types.ServiceConditionHealthy},
	"api-1":     agoraDeps,
	"api-2":     agoraDeps,
	"projector": agoraDeps,
	"lb": {
		"api-1": types.ServiceConditionStarted,
		"api-2": types.ServiceConditionStarted,
	},
}

var agoraDeps = map[string]string{
	"migrate":     types.ServiceConditionCompletedSuccessfully,
	"postgres":    types.ServiceConditionHealthy,
	"kafka":       types.ServiceConditionHealthy,
	"meilisearch": types.ServiceConditionHealthy,
	"clickhouse":  types.ServiceConditionHealthy,
}

// healthChecked services have a health check (others wait on it).
var healthChecked = []string{"postgres", "kafka", "connect", "meilisearch", "clickhouse"}

// oneShot services run to completion and are not restarted.
var oneShot = []string{"migrate", "connect-setup"}

// publishedPorts lists every port published on the host, per service, as
// "published:target/protocol". Nothing else is published: the databases,
// Kafka and the API nodes are reachable only on the compose network.
var publishedPorts = map[string][]string{
	"lb":      {"8080:80/tcp"},
	"livekit": {"7881:7881/tcp", "7882:7882/udp"},
}

// connectorSettings are the Debezium settings the built-in relay emulates
// (topic names, keys, envelope, value encodings; see the doc of
// relay) and those that decide what is captured.
// TestConnectorMatchesRelay compares the ones the relay exports as constants.
var connectorSettings = map[string]string{
	"connector.class":  "io.debezium.connector.postgresql.PostgresConnector",
	"plugin.name":      "pgoutput",
	"topic.prefix":     "agora",
	"publication.name": "agora_cdc",
	"slot.name":        "agora_debezium",
	// A publication FOR ALL TABLES, as the relay's covers the whole schema:
	// tables that later migrations add are captured without a restart, and
	// the heartbeat table is published, so the heartbeat's commit reaches
	// Debezium and moves the slot (pgoutput sends nothing for a transaction
	// that touched no published table). The exclude list keeps the
	// bookkeeping tables off Kafka.
	"publication.autocreate.mode":               "all_tables",
	"schema.include.list":                       "public",
	"table.exclude.list":                        "public.schema_migrations,public.cdc_relay_state,public.cdc_heartbeat,public.identity_clients,public.sso_flows",
	"snapshot.mode":                             "initial",
	"topic.creation.default.partitions":         "8",
	"topic.creation.default.replication.factor": "-1",
	"producer.override.acks":                    "all",
	"key.converter":                             "org.apache.kafka.connect.json.JsonConverter",
	"key.converter.schemas.enable":              "false",
	"value.converter":                           "org.apache.kafka.connect.json.JsonConverter",
	"value.converter.schemas.enable":            "false",
	"decimal.handling.mode":                     "string",
	// timestamp adaptive (ms for precision 0-3, µs above), time always µs:
	// what the relay's encoder does.
	"time.precision.mode":          "adaptive_time_microseconds",
	"interval.handling.mode":       "string",
	"binary.handling.mode":         "base64",
	"hstore.handling.mode":         "json",
	"tombstones.on.delete":         "false",
	"skipped.operations":           "none", // Debezium skips truncates (op t) by default
	"provide.transaction.metadata": "false",
	// Debezium's poll waits up to poll.interval.ms for a full batch
	// (max.batch.size, 2,048) before handing the changes to Connect: at
	// the default 500 ms, a change at 1,000 a second waits up to half a
	// second there, which alone breaks a p99 of 250 ms commit to
	// projection. 20 ms bounds that wait; a busy stream fills its batches
	// first and is not slowed (make bench, -only pipeline-latency).
	"poll.interval.ms":       "20",
	"heartbeat.interval.ms":  "10000",
	"heartbeat.action.query": "INSERT INTO cdc_heartbeat (id, beat_on) VALUES (1, now()) ON CONFLICT (id) DO UPDATE SET beat_on = excluded.beat_on",
	"tasks.max":              "1",
}

const (
	composeFile   = "docker-compose.yml"
	connectorFile = "debezium/agora-postgres.json"
	nginxFile     = "nginx/agora.conf"
	livekitFile   = "livekit/livekit.yaml"
	dockerfile    = "Dockerfile"
)

// load loads the compose file with env as the only environment (neither the
// process environment nor a .env file is read).
func load(t *testing.T, env map[string]string) *types.Project {
	t.Helper()
	var list []string
	for k, v := range env {
		list = append(list, k+"="+v)
	}
	opts, err := cli.NewProjectOptions([]string{composeFile},
		cli.WithWorkingDirectory("."),
		cli.WithEnv(list),
		cli.WithResolvedPaths(true),
	)
	if err != nil {
		t.Fatal(err)
	}
	p, err := cli.ProjectFromOptions(context.Background(), opts)
	if err != nil {
		t.Fatalf("load %s: %v", composeFile, err)
	}
	return p
}

func service(t *testing.T, p *types.Project, name string) types.ServiceConfig {
	t.Helper()
	s, err := p.GetService(name)
	if err != nil {
		t.Fatalf("service %s: %v", name, err)
	}
	return s
}

func env(s types.ServiceConfig, key string) (string, bool) {
	v, ok := s.Environment[key]
	if !ok || v == nil {
		return "", ok
	}
	return *v, true
}

// interpolated returns every variable the compose file interpolates, with
// whether it has a default (${X:-d} or ${X-d}) or is required (${X:?msg}).
func interpolated(t *testing.T) map[string]bool {
	t.Helper()
	raw, err := os.ReadFile(composeFile)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:?[-?])?`)
	vars := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			for _, m := range re.FindAllStringSubmatch(strings.ReplaceAll(v, "$$", ""), -1) {
				vars[m[1]] = vars[m[1]] || m[2] != ""
			}
		case map[string]any:
			for k, e := range v {
				walk(k)
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(doc)
	if len(vars) == 0 {
		t.Fatal("found no interpolated variables: the walk is broken")
	}
	return vars
}

func TestComposeLoads(t *testing.T) {
	p := load(t, nil)
	if p.Name != "agora" {
		t.Errorf("project name %q, want agora", p.Name)
	}
	for _, name := range expectedServices {
		if _, err := p.GetService(name); err != nil {
			t.Errorf("missing service %s", name)
		}
	}
	for _, name := range p.ServiceNames() {
		if !slices.Contains(expectedServices, name) {
			t.Errorf("service %s is not in the expected list: add it to the test and the README", name)
		}
	}
}

func TestEveryVariableHasADefault(t *testing.T) {
	for name, ok := range interpolated(t) {
		if !ok {
			t.Errorf("${%s} has no default: `docker compose up` would run with an empty value", name)
		}
	}
}

// TestEnvironmentFlowsThrough sets every variable the file interpolates and
// checks the values arrive where they belong.
func TestEnvironmentFlowsThrough(t *testing.T) {
	vars := interpolated(t)
	envm := map[string]string{}
	for name := range vars {
		envm[name] = "x-" + strings.ToLower(name)
	}
	envm["AGORA_BIND_ADDR"] = "0.0.0.0"
	envm["AGORA_HTTP_PORT"] = "9090"
	envm["LIVEKIT_NODE_IP"] = "203.0.113.7"
	envm["AGORA_PUBLIC_URL"] = "https://agora.example.com"
	envm["SMTP_PORT"] = "2525"
	p := load(t, envm)

	api := service(t, p, "api-1")
	for _, key := range []string{"MEILI_MASTER_KEY", "LIVEKIT_API_SECRET",
		"STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "SMTP_HOST", "AGORA_PUBLIC_URL", "AGORA_VAPID_PUBLIC_KEY", "AGORA_VAPID_PRIVATE_KEY",
		"AGORA_VAPID_SUBJECT"} {
		if v, _ := env(api, key); v != envm[key] {
			t.Errorf("api-1 %s = %q, want %q", key, v, envm[key])
		}
	}
	if v, _ := env(api, "DATABASE_URL"); !strings.Contains(v, ":"+envm["POSTGRES_PASSWORD"]+"@") {
		t.Errorf("DATABASE_URL %q does not carry POSTGRES_PASSWORD", v)
	}
	if v, _ := env(service(t, p, "postgres"), "POSTGRES_PASSWORD"); v != envm["POSTGRES_PASSWORD"] {
		t.Errorf("postgres POSTGRES_PASSWORD = %q", v)
	}
	if v, _ := env(service(t, p, "connect"), "POSTGRES_PASSWORD"); v != envm["POSTGRES_PASSWORD"] {
		t.Errorf("connect POSTGRES_PASSWORD = %q", v)
	}
	if v, _ := env(service(t, p, "meilisearch"), "MEILI_MASTER_KEY"); v != envm["MEILI_MASTER_KEY"] {
		t.Errorf("meilisearch MEILI_MASTER_KEY = %q", v)
	}
	if v, _ := env(service(t, p, "clickhouse"), "CLICKHOUSE_PASSWORD"); v != envm["CLICKHOUSE_PASSWORD"] {
		t.Errorf("clickhouse CLICKHOUSE_PASSWORD = %q", v)
	}
	lk := service(t, p, "livekit")
	if v, _ := env(lk, "LIVEKIT_KEYS"); v != "agora: "+envm["LIVEKIT_API_SECRET"] {
		t.Errorf("livekit LIVEKIT_KEYS = %q", v)
	}
	if !slices.Contains(lk.Command, "203.0.113.7") {
		t.Errorf("livekit command %q does not advertise LIVEKIT_NODE_IP", lk.Command)
	}
	for _, name := range []string{"lb", "livekit"} {
		for _, port := range service(t, p, name).Ports {
			if port.HostIP != "0.0.0.0" {
				t.Errorf("%s publishes %s on %q, want AGORA_BIND_ADDR (0.0.0.0)", name, port.Published, port.HostIP)
			}
		}
	}
	if got := service(t, p, "lb").Ports[0].Published; got != "9090" {
		t.Errorf("lb publishes %s, want AGORA_HTTP_PORT (9090)", got)
	}
}

// TestPortChangeFollows: changing only the published port moves the public
// URLs with it.
func TestPortChangeFollows(t *testing.T) {
	p := load(t, map[string]string{"AGORA_HTTP_PORT": "9090"})
	api := service(t, p, "api-1")
	for key, want := range map[string]string{
		"AGORA_PUBLIC_URL":   "http://localhost:9090",
		"LIVEKIT_PUBLIC_URL": "ws://localhost:9090/livekit",
	} {
		if v, _ := env(api, key); v != want {
			t.Errorf("%s = %q, want %q", key, v, want)
		}
	}
}

func TestImages(t *testing.T) {
	p := load(t, nil)
	var agoraImage string
	for _, name := range p.ServiceNames() {
		s := service(t, p, name)
		if s.Image == "" && s.Build == nil {
			t.Errorf("%s has neither image nor build", name)
			continue
		}
		if _, ok := agoraServices[name]; ok {
			checkAgoraBuild(t, name, s)
			if agoraImage == "" {
				agoraImage = s.Image
			} else if s.Image != agoraImage {
				t.Errorf("%s image %q, want the one agora image %q (built once)", name, s.Image, agoraImage)
			}
			continue
		}
		if s.Build != nil {
			t.Errorf("%s builds an image; only the agora services do", name)
		}
		// A pinned tag: repository:tag with a tag that is not "latest".
		ref := s.Image
		if i := strings.LastIndex(ref, "/"); i >= 0 {
			ref = ref[i+1:]
		}
		_, tag, ok := strings.Cut(ref, ":")
		if !ok || tag == "" || tag == "latest" {
			t.Errorf("%s image %q is not pinned to a tag", name, s.Image)
		}
	}
	// KRaft only: nothing of ZooKeeper anywhere.
	for _, name := range p.ServiceNames() {
		s := service(t, p, name)
		if strings.Contains(strings.ToLower(name+" "+s.Image), "zookeeper") {
			t.Errorf("%s: ZooKeeper has no place in a KRaft deployment", name)
		}
		for k := range s.Environment {
			if strings.Contains(k, "ZOOKEEPER") {
				t.Errorf("%s sets %s", name, k)
			}
		}
	}
}

func checkAgoraBuild(t *testing.T, name string, s types.ServiceConfig) {
	t.Helper()
	if s.Build == nil {
		t.Errorf("%s does not build from deploy/Dockerfile", name)
		return
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Clean(s.Build.Context) != root {
		t.Errorf("%s build context %q, want the repository root %q", name, s.Build.Context, root)
	}
	df := s.Build.Dockerfile
	if !filepath.IsAbs(df) {
		df = filepath.Join(s.Build.Context, df)
	}
	if want, _ := filepath.Abs(dockerfile); filepath.Clean(df) != want {
		t.Errorf("%s dockerfile %q, want %q", name, df, want)
	}
	if _, err := os.Stat(filepath.Join(s.Build.Context, "go.mod")); err != nil {
		t.Errorf("%s build context has no go.mod: %v", name, err)
	}
}

func TestDockerfile(t *testing.T) {
	raw, err := os.ReadFile(dockerfile)
	if err != nil {
		t.Fatal(err)
	}
	df := string(raw)
	for _, want := range []string{
		"FROM golang:",              // the Go build stage
		"CGO_ENABLED=1",             // cgo: the recorder's libopus and libpocketsphinx
		"libpocketsphinx-dev",       // their headers to build with
		"pocketsphinx-en-us",        // and the libraries and model to run with
		"./cmd/agora",               // of the one binary
		"web/package.json",          // builds the web app when it exists
		"npm run build",             //
		"COPY --from=web",           // and embeds it
		"FROM debian:bookworm-slim", // a small runtime image of the build's Debian
		"USER nonroot",              // not root
		"AGORA_ADDR=0.0.0.0:8080",   // listening beyond the container's loopback
		`ENTRYPOINT ["/usr/local/bin/agora"]`,
	} {
		if !strings.Contains(df, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join("..", "cmd", "agora")); err != nil {
		t.Errorf("the Dockerfile builds ./cmd/agora, which is missing: %v", err)
	}
}

func TestAgoraServices(t *testing.T) {
	p := load(t, nil)
	for name, sub := range agoraServices {
		s := service(t, p, name)
		if len(s.Command) == 0 || s.Command[0] != sub {
			t.Errorf("%s command %q, want agora %s", name, s.Command, sub)
		}
		for _, key := range requiredEnv[name] {
			if _, ok := s.Environment[key]; !ok {
				t.Errorf("%s lacks %s", name, key)
			}
		}
		for _, key := range nonEmptyEnv {
			if !slices.Contains(requiredEnv[name], key) {
				continue
			}
			if v, _ := env(s, key); strings.TrimSpace(v) == "" {
				t.Errorf("%s: %s is empty", name, key)
			}
		}

		// The binary's own configuration accepts the environment.
		cfg := config.Default()
		errs := cfg.FromEnv(func(key string) (string, bool) { return env(s, key) })
		if err := cfg.Validate(); err != nil {
			errs = append(errs, err)
		}
		for _, err := range errs {
			t.Errorf("%s: agora would refuse its environment: %v", name, err)
		}
		if cfg.DatabaseURL == "" {
			t.Errorf("%s has no DATABASE_URL: it would start a private Postgres", name)
		}

		// URLs point at the services of the stack.
		for key, target := range urlEnv {
			v, ok := env(s, key)
			if !ok {
				continue
			}
			for _, host := range hostsOf(t, key, v) {
				if host != target {
					t.Errorf("%s %s points at %q, want service %s", name, key, host, target)
				}
			}
		}
		if sub == "migrate" {
			continue
		}
		host, port, err := net.SplitHostPort(cfg.Addr)
		if err != nil || host != "0.0.0.0" || port != "8080" {
			t.Errorf("%s AGORA_ADDR %q, want 0.0.0.0:8080 (every interface of the container, the port the LB uses)", name, cfg.Addr)
		}
		if pub := cfg.PublicURL; pub == "" {
			t.Errorf("%s has no AGORA_PUBLIC_URL: mailed links would point at the container", name)
		}
		// The load balancer, and only it, is trusted to name the client.
		lbAddr := lbAddress(t, p)
		trusted := cfg.TrustedProxyList()
		if len(trusted) != 1 || trusted[0].Bits() != lbAddr.BitLen() || trusted[0].Addr() != lbAddr {
			t.Errorf("%s AGORA_TRUSTED_PROXIES %q, want the load balancer's address %s alone", name, cfg.TrustedProxies, lbAddr)
		}
	}

	// The relay is not deployed: Debezium does its job.
	for _, name := range p.ServiceNames() {
		if slices.Contains(service(t, p, name).Command, "relay") {
			t.Errorf("%s runs agora relay; the deployment uses Debezium instead", name)
		}
	}

	// The browser reaches LiveKit through the load balancer.
	api := service(t, p, "api-1")
	pub, _ := env(api, "AGORA_PUBLIC_URL")
	lkPub, _ := env(api, "LIVEKIT_PUBLIC_URL")
	pu, err1 := url.Parse(pub)
	lu, err2 := url.Parse(lkPub)
	if err1 != nil || err2 != nil || lu.Host != pu.Host || lu.Path != "/livekit" || (lu.Scheme != "ws" && lu.Scheme != "wss") {
		t.Errorf("LIVEKIT_PUBLIC_URL %q should be ws(s)://<AGORA_PUBLIC_URL host>/livekit (AGORA_PUBLIC_URL %q)", lkPub, pub)
	}
}

// hostsOf returns the host names in a URL or a comma-separated broker list.
func hostsOf(t *testing.T, key, v string) []string {
	t.Helper()
	if key == "KAFKA_BROKERS" {
		var hosts []string
		for _, b := range strings.Split(v, ",") {
			h, _, err := net.SplitHostPort(strings.TrimSpace(b))
			if err != nil {
				t.Errorf("KAFKA_BROKERS %q: %v", v, err)
				continue
			}
			hosts = append(hosts, h)
		}
		return hosts
	}
	u, err := url.Parse(v)
	if err != nil {
		t.Errorf("%s %q: %v", key, v, err)
		return nil
	}
	return []string{u.Hostname()}
}

func TestDependencies(t *testing.T) {
	p := load(t, nil)
	for name, deps := range requiredDeps {
		s := service(t, p, name)
		for dep, cond := range deps {
			got, ok := s.DependsOn[dep]
			if !ok {
				t.Errorf("%s does not depend on %s", name, dep)
				continue
			}
			if got.Condition != cond {
				t.Errorf("%s waits for %s to be %s, want %s", name, dep, got.Condition, cond)
			}
		}
	}
	for _, name := range healthChecked {
		s := service(t, p, name)
		if s.HealthCheck == nil || s.HealthCheck.Disable || len(s.HealthCheck.Test) < 2 {
			t.Errorf("%s has no health check", name)
		}
	}
	for _, name := range oneShot {
		if r := service(t, p, name).Restart; r != "no" {
			t.Errorf("%s is one-shot, restart %q, want no", name, r)
		}
	}
	// Every condition can be met: service_healthy needs a health check,
	// service_completed_successfully a one-shot service.
	for _, name := range p.ServiceNames() {
		for dep, d := range service(t, p, name).DependsOn {
			target := service(t, p, dep)
			switch d.Condition {
			case types.ServiceConditionHealthy:
				if target.HealthCheck == nil || target.HealthCheck.Disable {
					t.Errorf("%s waits for %s to be healthy, but %s has no health check", name, dep, dep)
				}
			case types.ServiceConditionCompletedSuccessfully:
				if !slices.Contains(oneShot, dep) {
					t.Errorf("%s waits for %s to complete, but %s is not one-shot", name, dep, dep)
				}
			}
		}
		if !slices.Contains(oneShot, name) {
			if r := service(t, p, name).Restart; r != "unless-stopped" && r != "always" {
				t.Errorf("%s is long-running, restart %q", name, r)
			}
		}
	}
}

func TestPublishedPorts(t *testing.T) {
	p := load(t, nil)
	for _, name := range p.ServiceNames() {
		s := service(t, p, name)
		want := publishedPorts[name]
		var got []string
		for _, port := range s.Ports {
			proto := port.Protocol
			if proto == "" {
				proto = "tcp"
			}
			got = append(got, port.Published+":"+strconv.Itoa(int(port.Target))+"/"+proto)
			// By default nothing is reachable from other machines.
			if port.HostIP != "127.0.0.1" {
				t.Errorf("%s publishes %d on %q by default, want 127.0.0.1 (AGORA_BIND_ADDR opens it up)", name, port.Target, port.HostIP)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s publishes %v, want %v", name, got, want)
		}
	}
}

func TestReadme(t *testing.T) {
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	for name := range interpolated(t) {
		if !strings.Contains(readme, "`"+name+"`") {
			t.Errorf("README.md does not document `%s`", name)
		}
	}
	p := load(t, nil)
	for _, name := range p.ServiceNames() {
		if !strings.Contains(readme, "`"+name+"`") {
			t.Errorf("README.md does not describe service `%s`", name)
		}
	}
	for _, want := range []string{"docker compose -f deploy/docker-compose.yml up --build", "agora relay"} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
}
