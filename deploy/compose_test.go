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
	"encoding/json"
	"encoding/xml"
	"net"
	"net/netip"
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

	"agora/internal/adapters/kafka"
	"agora/internal/adapters/sfu"
	"agora/internal/plumbing/config"
	"agora/relay"
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
	"heartbeat.interval.ms":        "10000",
	"heartbeat.action.query":       "INSERT INTO cdc_heartbeat (id, beat_on) VALUES (1, now()) ON CONFLICT (id) DO UPDATE SET beat_on = excluded.beat_on",
	"tasks.max":                    "1",
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

func TestPostgres(t *testing.T) {
	p := load(t, nil)
	pg := service(t, p, "postgres")
	cmd := strings.Join(pg.Command, " ")
	if !strings.Contains(cmd, "wal_level=logical") {
		t.Errorf("postgres command %q lacks wal_level=logical", cmd)
	}
	for _, setting := range []string{"max_replication_slots", "max_wal_senders"} {
		m := regexp.MustCompile(setting + `=(\d+)`).FindStringSubmatch(cmd)
		if m == nil {
			t.Errorf("postgres command %q does not set %s", cmd, setting)
			continue
		}
		if n, _ := strconv.Atoi(m[1]); n < 2 {
			t.Errorf("%s=%d leaves no room beside Debezium", setting, n)
		}
	}
	for _, key := range []string{"POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"} {
		if v, _ := env(pg, key); v == "" {
			t.Errorf("postgres %s is empty", key)
		}
	}
	// DATABASE_URL names the user and database that postgres creates.
	dbURL, _ := env(service(t, p, "api-1"), "DATABASE_URL")
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	user, _ := env(pg, "POSTGRES_USER")
	pass, _ := env(pg, "POSTGRES_PASSWORD")
	db, _ := env(pg, "POSTGRES_DB")
	if gotPass, _ := u.User.Password(); u.User.Username() != user || gotPass != pass || strings.TrimPrefix(u.Path, "/") != db {
		t.Errorf("DATABASE_URL %q does not match postgres' user %q / database %q", dbURL, user, db)
	}
}

func TestKafka(t *testing.T) {
	p := load(t, nil)
	k := service(t, p, "kafka")
	roles, _ := env(k, "KAFKA_PROCESS_ROLES")
	if !slices.Contains(strings.Split(roles, ","), "broker") || !slices.Contains(strings.Split(roles, ","), "controller") {
		t.Errorf("KAFKA_PROCESS_ROLES %q, want broker,controller (KRaft)", roles)
	}
	for _, key := range []string{"KAFKA_CONTROLLER_QUORUM_VOTERS", "KAFKA_CONTROLLER_LISTENER_NAMES", "KAFKA_NODE_ID", "CLUSTER_ID", "KAFKA_LOG_DIRS"} {
		if v, _ := env(k, key); v == "" {
			t.Errorf("kafka %s is not set", key)
		}
	}
	// Clients reach the broker at the address it advertises.
	adv, _ := env(k, "KAFKA_ADVERTISED_LISTENERS")
	brokers, _ := env(service(t, p, "api-1"), "KAFKA_BROKERS")
	for _, b := range strings.Split(brokers, ",") {
		if !strings.Contains(adv, "://"+b) {
			t.Errorf("KAFKA_BROKERS has %q, which kafka does not advertise (%q)", b, adv)
		}
	}
	if bs, _ := env(service(t, p, "connect"), "BOOTSTRAP_SERVERS"); bs != brokers {
		t.Errorf("connect BOOTSTRAP_SERVERS %q, want %q", bs, brokers)
	}
	// Data survives a restart.
	dir, _ := env(k, "KAFKA_LOG_DIRS")
	if !hasVolumeAt(k, dir) {
		t.Errorf("kafka keeps its log in %s, which is not a volume", dir)
	}
	if !hasVolumeAt(service(t, p, "postgres"), "/var/lib/postgresql/data") {
		t.Errorf("postgres data is not on a volume")
	}
}

func hasVolumeAt(s types.ServiceConfig, target string) bool {
	for _, v := range s.Volumes {
		if v.Target == target && v.Type == types.VolumeTypeVolume {
			return true
		}
	}
	return false
}

func readConnector(t *testing.T) map[string]string {
	t.Helper()
	raw, err := os.ReadFile(connectorFile)
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]string // Kafka Connect takes string values only
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatalf("%s: %v", connectorFile, err)
	}
	return c
}

func TestConnector(t *testing.T) {
	c := readConnector(t)
	for key, want := range connectorSettings {
		if got, ok := c[key]; !ok || got != want {
			t.Errorf("connector %s = %q, want %q", key, got, want)
		}
	}
	if _, ok := c["table.include.list"]; ok {
		t.Error("table.include.list and table.exclude.list cannot be combined")
	}

	p := load(t, nil)
	pg := service(t, p, "postgres")
	if h := c["database.hostname"]; h != "postgres" {
		t.Errorf("database.hostname %q, want postgres", h)
	}
	if port := c["database.port"]; port != "5432" {
		t.Errorf("database.port %q", port)
	}
	for key, pgKey := range map[string]string{"database.user": "POSTGRES_USER", "database.dbname": "POSTGRES_DB"} {
		if want, _ := env(pg, pgKey); c[key] != want {
			t.Errorf("connector %s %q, want postgres' %s %q", key, c[key], pgKey, want)
		}
	}

	// The password comes from the worker's environment, not from the file.
	connect := service(t, p, "connect")
	m := regexp.MustCompile(`^\$\{env:([A-Z_]+)\}$`).FindStringSubmatch(c["database.password"])
	if m == nil {
		t.Fatalf("database.password %q should be ${env:NAME}", c["database.password"])
	}
	if v, _ := env(connect, m[1]); v == "" {
		t.Errorf("connect does not set %s for the connector's password", m[1])
	} else if want, _ := env(pg, "POSTGRES_PASSWORD"); v != want {
		t.Errorf("connect %s differs from postgres' password", m[1])
	}
	if v, _ := env(connect, "CONNECT_CONFIG_PROVIDERS"); !slices.Contains(strings.Split(v, ","), "env") {
		t.Errorf("connect CONNECT_CONFIG_PROVIDERS %q lacks env", v)
	}
	if v, _ := env(connect, "CONNECT_CONFIG_PROVIDERS_ENV_CLASS"); v != "org.apache.kafka.common.config.provider.EnvVarConfigProvider" {
		t.Errorf("connect CONNECT_CONFIG_PROVIDERS_ENV_CLASS %q", v)
	}

	// Change topics have as many partitions as auto-created ones, which bounds
	// the projector's scale.
	if n, _ := env(service(t, p, "kafka"), "KAFKA_NUM_PARTITIONS"); c["topic.creation.default.partitions"] != n {
		t.Errorf("topic.creation.default.partitions %q, KAFKA_NUM_PARTITIONS %q: keep them equal",
			c["topic.creation.default.partitions"], n)
	}

	// connect-setup PUTs this very file to this connector's name.
	setup := service(t, p, "connect-setup")
	cmd := strings.Join(setup.Command, " ")
	if !strings.Contains(cmd, "PUT") || !strings.Contains(cmd, "http://connect:8083/connectors/"+c["name"]+"/config") {
		t.Errorf("connect-setup %q does not PUT the config of connector %q", cmd, c["name"])
	}
	abs, _ := filepath.Abs(connectorFile)
	mounted := false
	for _, v := range setup.Volumes {
		if v.Source == abs && strings.Contains(cmd, "@"+v.Target) {
			mounted = true
		}
	}
	if !mounted {
		t.Errorf("connect-setup does not send %s (mount it and pass it with --data @path)", connectorFile)
	}
}

// TestConnectorMatchesRelay holds the connector to the built-in relay's
// constants, so that the consumers see the same topics and events from
// either producer.
func TestConnectorMatchesRelay(t *testing.T) {
	c := readConnector(t)
	for key, want := range map[string]string{
		"topic.prefix":                      relay.DefaultTopicPrefix,
		"publication.name":                  relay.DefaultPublication,
		"table.exclude.list":                strings.Join(relay.Excluded, ","),
		"heartbeat.action.query":            relay.HeartbeatQuery,
		"topic.creation.default.partitions": strconv.Itoa(kafka.DefaultPartitions),
	} {
		if c[key] != want {
			t.Errorf("connector %s %q, the relay uses %q", key, c[key], want)
		}
	}
	// Each producer has its own slot: switching from one to the other never
	// takes over a slot whose position the other one owns.
	if c["slot.name"] == relay.DefaultSlot {
		t.Errorf("connector slot.name %q is the relay's slot", c["slot.name"])
	}
}

func TestBindMountsExist(t *testing.T) {
	p := load(t, nil)
	for _, name := range p.ServiceNames() {
		for _, v := range service(t, p, name).Volumes {
			if v.Type != types.VolumeTypeBind {
				continue
			}
			if _, err := os.Stat(v.Source); err != nil {
				t.Errorf("%s mounts %s, which does not exist", name, v.Source)
			}
			if !v.ReadOnly {
				t.Errorf("%s mounts %s writable; configuration is mounted read-only", name, v.Source)
			}
		}
	}
}

func TestLoadBalancer(t *testing.T) {
	p := load(t, nil)
	lb := service(t, p, "lb")
	abs, _ := filepath.Abs(nginxFile)
	mounted := false
	for _, v := range lb.Volumes {
		if v.Source == abs && v.Target == "/etc/nginx/conf.d/default.conf" {
			mounted = true
		}
	}
	if !mounted {
		t.Errorf("lb does not mount %s as the default server", nginxFile)
	}
	raw, err := os.ReadFile(nginxFile)
	if err != nil {
		t.Fatal(err)
	}
	conf := stripComments(string(raw))

	up := regexp.MustCompile(`upstream\s+(\w+)\s*\{([^}]*)\}`).FindAllStringSubmatch(conf, -1)
	var apiUpstream string
	for _, m := range up {
		if strings.Contains(m[2], "api-1:") {
			apiUpstream = m[1]
			for _, name := range []string{"api-1", "api-2"} {
				port := "8080"
				if !regexp.MustCompile(`server\s+` + regexp.QuoteMeta(name+":"+port) + `\b`).MatchString(m[2]) {
					t.Errorf("upstream %s lacks server %s:%s", m[1], name, port)
				}
			}
		}
	}
	if apiUpstream == "" {
		t.Fatal("no upstream holds the API nodes")
	}
	if !strings.Contains(conf, "proxy_pass http://"+apiUpstream+";") {
		t.Errorf("nothing is proxied to upstream %s", apiUpstream)
	}
	if !regexp.MustCompile(`listen\s+80\s*;`).MatchString(conf) || lb.Ports[0].Target != 80 {
		t.Error("nginx should listen on 80, the port lb publishes")
	}
	// The realtime hub's WebSocket is upgraded and kept open.
	for _, want := range []string{"location = /api/hub", "proxy_set_header Upgrade $http_upgrade",
		"proxy_set_header Connection $connection_upgrade", "location /livekit/", "proxy_pass http://livekit/;"} {
		if !strings.Contains(conf, want) {
			t.Errorf("nginx config lacks %q", want)
		}
	}
}

func stripComments(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

func TestLiveKit(t *testing.T) {
	p := load(t, nil)
	lk := service(t, p, "livekit")
	raw, err := os.ReadFile(livekitFile)
	if err != nil {
		t.Fatal(err)
	}
	var conf struct {
		Port int `yaml:"port"`
		RTC  struct {
			TCPPort       int  `yaml:"tcp_port"`
			UDPPort       int  `yaml:"udp_port"`
			UseExternalIP bool `yaml:"use_external_ip"`
		} `yaml:"rtc"`
		Webhook struct {
			APIKey string   `yaml:"api_key"`
			URLs   []string `yaml:"urls"`
		} `yaml:"webhook"`
	}
	if err := yaml.Unmarshal(raw, &conf); err != nil {
		t.Fatalf("%s: %v", livekitFile, err)
	}
	want := []string{
		strconv.Itoa(conf.RTC.TCPPort) + ":" + strconv.Itoa(conf.RTC.TCPPort) + "/tcp",
		strconv.Itoa(conf.RTC.UDPPort) + ":" + strconv.Itoa(conf.RTC.UDPPort) + "/udp",
	}
	if !slices.Equal(want, publishedPorts["livekit"]) {
		t.Errorf("livekit.yaml media ports %v, compose publishes %v", want, publishedPorts["livekit"])
	}
	api := service(t, p, "api-1")
	lkURL, _ := env(api, "LIVEKIT_URL")
	if u, err := url.Parse(lkURL); err != nil || u.Port() != strconv.Itoa(conf.Port) {
		t.Errorf("LIVEKIT_URL %q, want port %d", lkURL, conf.Port)
	}
	// LiveKit refuses secrets shorter than 32 characters.
	key, _ := env(api, "LIVEKIT_API_KEY")
	secret, _ := env(api, "LIVEKIT_API_SECRET")
	if len(secret) < 32 {
		t.Errorf("LIVEKIT_API_SECRET has %d characters, LiveKit needs 32", len(secret))
	}
	if keys, _ := env(lk, "LIVEKIT_KEYS"); keys != key+": "+secret {
		t.Errorf("livekit LIVEKIT_KEYS %q does not match the API's key and secret", keys)
	}
	// LiveKit signs its webhooks with the key the API verifies them with,
	// and posts them to the API's webhook path through the load balancer.
	if conf.Webhook.APIKey != key {
		t.Errorf("livekit.yaml signs webhooks with key %q, the API has %q", conf.Webhook.APIKey, key)
	}
	if len(conf.Webhook.URLs) != 1 {
		t.Fatalf("livekit.yaml webhook urls %q, want the API's", conf.Webhook.URLs)
	}
	if u, err := url.Parse(conf.Webhook.URLs[0]); err != nil || u.Hostname() != "lb" || u.Path != sfu.WebhookPath {
		t.Errorf("livekit.yaml posts webhooks to %q, want http://lb%s", conf.Webhook.URLs[0], sfu.WebhookPath)
	}
	if _, ok := p.Services["lb"]; !ok {
		t.Error("no lb service to post the webhooks to")
	}
	cmd := strings.Join(lk.Command, " ")
	if !strings.Contains(cmd, "--config /etc/livekit.yaml") || !strings.Contains(cmd, "--node-ip ") {
		t.Errorf("livekit command %q", cmd)
	}
	if strings.Contains(cmd, "--dev") {
		t.Error("livekit runs with --dev (insecure placeholder keys)")
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

// analystXML is what TestClickHouseAnalyst reads of
// clickhouse/users.d/analyst.xml.
type analystXML struct {
	Profiles struct {
		Analyst struct {
			Readonly         string `xml:"readonly"`
			MaxExecutionTime string `xml:"max_execution_time"`
		} `xml:"analyst"`
	} `xml:"profiles"`
	Users struct {
		Analyst struct {
			Password struct {
				FromEnv string `xml:"from_env,attr"`
				Value   string `xml:",chardata"`
			} `xml:"password"`
			Profile string   `xml:"profile"`
			Grants  []string `xml:"grants>query"`
		} `xml:"analyst"`
	} `xml:"users"`
}

// TestClickHouseAnalyst: the warehouse has a read-only analyst user, whose
// password comes from the environment, who may read the agora database
// and nothing else.
func TestClickHouseAnalyst(t *testing.T) {
	p := load(t, map[string]string{"CLICKHOUSE_ANALYST_PASSWORD": "s3cret-analyst"})
	ch := service(t, p, "clickhouse")
	const target = "/etc/clickhouse-server/users.d/analyst.xml"
	var src string
	for _, v := range ch.Volumes {
		if v.Type == types.VolumeTypeBind && v.Target == target {
			src = v.Source
			if !v.ReadOnly {
				t.Errorf("%s is mounted writable", target)
			}
		}
	}
	if src == "" {
		t.Fatalf("clickhouse does not mount the analyst user at %s", target)
	}
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var x analystXML
	if err := xml.Unmarshal(raw, &x); err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	u := x.Users.Analyst
	if u.Password.FromEnv == "" || strings.TrimSpace(u.Password.Value) != "" {
		t.Errorf("the analyst's password is not read from the environment: %+v", u.Password)
	}
	if v, _ := env(ch, u.Password.FromEnv); v != "s3cret-analyst" {
		t.Errorf("clickhouse %s = %q, want CLICKHOUSE_ANALYST_PASSWORD", u.Password.FromEnv, v)
	}
	if u.Profile != "analyst" || strings.TrimSpace(x.Profiles.Analyst.Readonly) != "1" {
		t.Errorf("the analyst's profile %q is not readonly = 1 (%q)", u.Profile, x.Profiles.Analyst.Readonly)
	}
	db, _ := env(ch, "CLICKHOUSE_DB")
	if want := []string{"GRANT SELECT ON " + db + ".*"}; !slices.Equal(u.Grants, want) {
		t.Errorf("the analyst's grants %q, want %q", u.Grants, want)
	}
	api := service(t, p, "api-1")
	if v, _ := env(api, "CLICKHOUSE_URL"); strings.Contains(v, "analyst") {
		t.Errorf("the API connects as the analyst: %s", v)
	}
}

// nginxLocation is one location block of the nginx server: its modifier
// ("", "=", "^~", "~", "~*"), its pattern and its body.
type nginxLocation struct {
	modifier, pattern, body string
}

// nginxLocations reads the location blocks of conf (comments stripped),
// in order; their bodies hold no nested blocks.
func nginxLocations(t *testing.T, conf string) []nginxLocation {
	t.Helper()
	var out []nginxLocation
	re := regexp.MustCompile(`location\s+(?:(=|\^~|~\*|~)\s+)?(\S+)\s*\{([^{}]*)\}`)
	for _, m := range re.FindAllStringSubmatch(conf, -1) {
		out = append(out, nginxLocation{modifier: m[1], pattern: m[2], body: m[3]})
	}
	if len(out) == 0 {
		t.Fatal("found no location blocks: the parse is broken")
	}
	return out
}

// nginxMatch picks the location nginx serves path with: an exact match;
// else the longest prefix if it is ^~; else the first regular expression
// that matches, in the order written; else the longest prefix.
func nginxMatch(t *testing.T, locs []nginxLocation, path string) *nginxLocation {
	t.Helper()
	var longest *nginxLocation
	for i := range locs {
		l := &locs[i]
		switch l.modifier {
		case "=":
			if path == l.pattern {
				return l
			}
		case "", "^~":
			if strings.HasPrefix(path, l.pattern) && (longest == nil || len(l.pattern) > len(longest.pattern)) {
				longest = l
			}
		}
	}
	if longest != nil && longest.modifier == "^~" {
		return longest
	}
	for i := range locs {
		l := &locs[i]
		if l.modifier != "~" && l.modifier != "~*" {
			continue
		}
		expr := l.pattern
		if l.modifier == "~*" {
			expr = "(?i)" + expr
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			t.Fatalf("location %s %s: %v", l.modifier, l.pattern, err)
		}
		if re.MatchString(path) {
			return l
		}
	}
	return longest
}

// TestLoadBalancerHidesInternalRoutes: the API nodes' metrics and the dev
// mailbox are not reachable through nginx, in any spelling the API's
// routes accept (they ignore case and a trailing slash); the rest still
// reaches the API.
func TestLoadBalancerHidesInternalRoutes(t *testing.T) {
	raw, err := os.ReadFile(nginxFile)
	if err != nil {
		t.Fatal(err)
	}
	locs := nginxLocations(t, stripComments(string(raw)))
	denied := regexp.MustCompile(`^\s*return\s+404\s*;\s*$`)
	for _, path := range []string{
		"/metrics", "/metrics/", "/METRICS", "/Metrics/",
		"/api/dev/mailbox", "/api/dev/mailbox/", "/API/DEV/MAILBOX", "/api/dev", "/api/dev/", "/Api/Dev/Mailbox",
	} {
		l := nginxMatch(t, locs, path)
		if l == nil || !denied.MatchString(l.body) {
			t.Errorf("%s reaches location %+v, want one that only returns 404", path, l)
		}
	}
	for _, path := range []string{"/", "/api/me", "/api/hub", "/api/blobs/x", "/api/devices", "/metricsboard", "/forums/1"} {
		l := nginxMatch(t, locs, path)
		if l == nil || !strings.Contains(l.body, "proxy_pass http://agora_api;") {
			t.Errorf("%s reaches location %+v, want the API", path, l)
		}
	}
}

// lbAddress is the load balancer's fixed address on the stack's network,
// checked to lie in the network's range outside the range given out to the
// other containers.
func lbAddress(t *testing.T, p *types.Project) netip.Addr {
	t.Helper()
	lb := service(t, p, "lb")
	n, ok := lb.Networks["default"]
	if !ok || n == nil {
		t.Fatal("lb is not on the default network with settings")
	}
	a, err := netip.ParseAddr(n.Ipv4Address)
	if err != nil {
		t.Fatalf("lb ipv4_address %q: %v", n.Ipv4Address, err)
	}
	network, ok := p.Networks["default"]
	if !ok || len(network.Ipam.Config) != 1 {
		t.Fatal("the default network has no one IPAM range")
	}
	subnet, err1 := netip.ParsePrefix(network.Ipam.Config[0].Subnet)
	dynamic, err2 := netip.ParsePrefix(network.Ipam.Config[0].IPRange)
	if err1 != nil || err2 != nil || !subnet.Contains(a) || dynamic.Contains(a) {
		t.Errorf("lb address %s must be in the subnet %q and outside the ip_range %q given to the others", a, network.Ipam.Config[0].Subnet, network.Ipam.Config[0].IPRange)
	}
	return a
}
