package deploy_test

import (
	"encoding/json"
	"encoding/xml"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"

	"agora/internal/adapters/kafka"
	"agora/relay"
)

func TestPostgres(t *testing.T) {
	p := load(t, nil)
	pg := service(t, p, "postgres")
	cmd := strings.Join(pg.Command, " ")
	if !strings.Contains(cmd, "wal_level=logical") {
		t.Errorf("postgres command %q lacks wal_level=logical", cmd)
	}
	// A slot whose reader is gone keeps WAL until the disk is full unless
	// this bounds it (-1, the default, keeps it all).
	if m := regexp.MustCompile(`max_slot_wal_keep_size=(\d+)(MB|GB|TB)\b`).FindStringSubmatch(cmd); m == nil || m[1] == "0" {
		t.Errorf("postgres command %q does not bound the WAL a slot keeps (max_slot_wal_keep_size)", cmd)
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
