package deploy_test

import (
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
	"gopkg.in/yaml.v3"

	"agora/internal/adapters/sfu"
)

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
