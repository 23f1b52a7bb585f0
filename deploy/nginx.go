package deploy

import (
	_ "embed"
	"fmt"
	"regexp"
	"strings"
)

//go:embed nginx/agora.conf
var nginxConf string

var (
	nginxResolver = regexp.MustCompile(`(?m)^\s*resolver\s[^;]*;\n?`)
	// An upstream server line: `server NAME:PORT [resolve] [params];`.
	nginxServer = regexp.MustCompile(`(?m)^(\s*)server\s+([A-Za-z0-9.-]+):\d+((?:\s+[^;\s]+)*)\s*;`)
	nginxListen = regexp.MustCompile(`listen\s+80\s*;`)
)

// LoadBalancerFor is the load balancer's configuration (nginx/agora.conf,
// an http-level file) for servers on one machine: each upstream server
// named by its compose service (api-1, api-2, livekit) is set to the
// address servers give it, the listener to listen (host:port), and
// Docker's resolver is dropped with the `resolve` flags, as the addresses
// are fixed. Every other line is deploy's own, so the tests that run nginx
// over it (deploy's, and cmd/agora's real-engines suite behind which two
// API nodes serve) run what a deployment runs. A service without an
// address is an error.
func LoadBalancerFor(servers map[string]string, listen string) (string, error) {
	conf := nginxResolver.ReplaceAllString(nginxConf, "")
	var missing []string
	found := 0
	conf = nginxServer.ReplaceAllStringFunc(conf, func(line string) string {
		m := nginxServer.FindStringSubmatch(line)
		addr, ok := servers[m[2]]
		if !ok {
			missing = append(missing, m[2])
			return line
		}
		found++
		var params []string
		for _, p := range strings.Fields(m[3]) {
			if p != "resolve" {
				params = append(params, p)
			}
		}
		return m[1] + "server " + strings.Join(append([]string{addr}, params...), " ") + ";"
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("deploy: nginx/agora.conf: no address for %s", strings.Join(missing, ", "))
	}
	if found < 3 {
		return "", fmt.Errorf("deploy: nginx/agora.conf: %d upstream servers found, want api-1, api-2 and livekit", found)
	}
	if !nginxListen.MatchString(conf) {
		return "", fmt.Errorf("deploy: nginx/agora.conf: no `listen 80;` to move")
	}
	return nginxListen.ReplaceAllString(conf, "listen "+listen+";"), nil
}
