// The layering of the module's packages, checked by `make lint` (and by
// every `go test ./...`): the rooms of README's layout section, from the top
// down, and the shelves of internal/. A package may import packages of its
// own room and of the rooms below it, never above; the write side
// (command/) and the read side (query/) never import each other. A new
// top-level folder, or a new shelf of internal/, must be given a room here.
package agora_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

const module = "agora"

// layers are the rooms, top first; rooms of one layer may import each other
// unless they are kept apart. internal/ is the ground, in shelves: the
// product's rules over the platform adapters and the embedded stand-ins,
// over plumbing, which imports nothing of the module but plumbing.
var layers = [][]string{
	{"cmd"},                                  // programs: the agora binary, the benchmark, the probe, the generator
	{"app"},                                  // the composition root, the demo data and the test harness
	{"httpapi"},                              // the transport
	{"projections"},                          // the read models fed by the change stream
	{"command", "query"},                     // use cases: the write side and the read side
	{"search", "analytics", "relay", "live"}, // the search read store, the warehouse, the change relay, the hub
	{"internal/rules", "web", "deploy"},      // the product's rules (and the web app, the deployment)
	{"internal/adapters", "internal/standins"}, // the platform's adapters; the real servers that stand in for production's
	{"internal/plumbing"},                      // errors, config, the database, sessions, paging…
}

// apart are rooms that must not import each other whatever their layers:
// the write side and the read side; and the use cases and the change
// pipeline, since a write reaches the hub and the stores only as a change
// of Postgres (a command that told the hub itself would tell it what may
// yet roll back).
var apart = [][2]string{{"command", "query"}, {"command", "live"}, {"command", "relay"}, {"query", "live"}, {"query", "relay"}}

// standins is the shelf of embedded servers (Postgres, ClickHouse, LiveKit,
// stripe-mock, an OpenID Provider): only the composition root and the
// programs start them, so a use case cannot come to depend on a dev server.
const standins = "internal/standins"

// Test doubles are the packages named …test (pushtest, sfutest,
// searchtest…), each beside what it doubles. Outside test files only the
// test harness and the programs that drive a server from outside (the
// benchmark and the bad-input probe) import them.
var doubleUsers = []string{"app/testenv", "cmd/bench", "cmd/probe"}

// room is the top-level folder of a package of the module, or for
// internal/ its shelf.
func room(pkg string) string {
	rest := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
	parts := strings.SplitN(rest, "/", 3)
	if parts[0] == "internal" && len(parts) > 1 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

func level(r string) int {
	for i, l := range layers {
		if slices.Contains(l, r) {
			return i
		}
	}
	return -1
}

// isDouble reports whether pkg is a test double.
func isDouble(pkg string) bool {
	return strings.HasSuffix(pkg[strings.LastIndex(pkg, "/")+1:], "test")
}

// under reports whether pkg is dir or below it (dir relative to the module).
func under(pkg, dir string) bool {
	p := module + "/" + dir
	return pkg == p || strings.HasPrefix(pkg, p+"/")
}

// violations lists the imports of imports (package → its imports) that
// break the layering.
func violations(imports map[string][]string) []string {
	var bad []string
	for pkg, deps := range imports {
		if pkg == module {
			continue // this test, the only file at the top
		}
		from := room(pkg)
		if level(from) < 0 {
			if strings.HasPrefix(from, "internal") {
				bad = append(bad, pkg+": not on a shelf of internal/ (rules, adapters, standins, plumbing)")
			} else {
				bad = append(bad, pkg+": its folder "+from+"/ is in no layer (add it to layers)")
			}
			continue
		}
		for _, dep := range deps {
			if dep != module && !strings.HasPrefix(dep, module+"/") {
				continue
			}
			to := room(dep)
			switch {
			case level(to) < 0:
				// reported as the imported package's own violation
			case level(to) < level(from):
				bad = append(bad, pkg+" imports "+dep+", a layer above it")
			case slices.Contains(apart, [2]string{from, to}) || slices.Contains(apart, [2]string{to, from}):
				bad = append(bad, pkg+" imports "+dep+": "+from+"/ and "+to+"/ are kept apart")
			case to == standins && from != standins && from != "app" && from != "cmd":
				bad = append(bad, pkg+" imports "+dep+": stand-ins are started only by app/ and cmd/")
			case isDouble(dep) && !isDouble(pkg) && !slices.ContainsFunc(doubleUsers, func(u string) bool { return under(pkg, u) }):
				bad = append(bad, pkg+" imports "+dep+": a test double, for tests, app/testenv, cmd/bench and cmd/probe only")
			}
		}
	}
	slices.Sort(bad)
	return bad
}

func TestLayers(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goTool, "list", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, ":")
		imports[pkg] = strings.Fields(deps)
	}
	if len(imports) < 40 {
		t.Fatalf("go list found %d packages: not the module's", len(imports))
	}
	for _, v := range violations(imports) {
		t.Error(v)
	}
}

// TestLayersCatch checks that each rule refuses what it must, and allows
// what the module does.
func TestLayersCatch(t *testing.T) {
	for _, c := range []struct {
		pkg, dep string
		ok       bool
	}{
		// the order of the rooms
		{"agora/internal/rules/access", "agora/query/feed", false},
		{"agora/projections/realtime", "agora/httpapi", false},
		{"agora/httpapi", "agora/app", false},
		{"agora/app", "agora/cmd/agora", false},
		{"agora/command/feed", "agora/live", false},
		{"agora/command/feed", "agora/projections/realtime", false},
		{"agora/query/feed", "agora/projections/realtime", false},
		{"agora/live", "agora/command/feed", false},
		{"agora/query/chat", "agora/live", false},
		{"agora/command/feed", "agora/relay", false},
		{"agora/relay", "agora/projections/change", false},
		{"agora/search", "agora/query/feed", false},
		{"agora/newroom/x", "agora/internal/plumbing/db", false},
		{"agora/app/testenv", "agora/app", true},
		{"agora/projections/realtime", "agora/query/feed", true},
		{"agora/projections/realtime", "agora/command/feed", true},
		{"agora/projections/realtime", "agora/live", true},
		{"agora/httpapi", "agora/command/feed", true},
		{"agora/command/feed", "agora/search", true},
		// command/ and query/ apart
		{"agora/command/feed", "agora/query/feed", false},
		{"agora/query/feed", "agora/command/feed", false},
		// the shelves: nothing loose on internal/
		{"agora/internal/newthing", "agora/internal/plumbing/db", false},
		{"agora/internal/newshelf/x", "agora/internal/plumbing/db", false},
		// adapters never import rules
		{"agora/internal/adapters/mail", "agora/internal/rules/access", false},
		{"agora/internal/rules/picture", "agora/internal/adapters/blob", true},
		// plumbing imports only plumbing
		{"agora/internal/plumbing/config", "agora/internal/adapters/webpush", false},
		{"agora/internal/plumbing/db", "agora/internal/rules/access", false},
		{"agora/internal/plumbing/db", "agora/internal/standins/pgserver", false},
		{"agora/internal/plumbing/paging", "agora/internal/plumbing/apperr", true},
		{"agora/internal/rules/access", "github.com/jackc/pgx/v5", true},
		// stand-ins only for app/, cmd/ and each other
		{"agora/command/minutes", "agora/internal/standins/sfuserver", false},
		{"agora/internal/adapters/sfu", "agora/internal/standins/sfuserver", false},
		{"agora/internal/rules/access", "agora/internal/standins/pgserver", false},
		{"agora/app", "agora/internal/standins/pgserver", true},
		{"agora/app/testenv", "agora/internal/standins/chserver", true},
		{"agora/cmd/jetgen", "agora/internal/standins/pgserver", true},
		{"agora/internal/standins/pgserver", "agora/internal/standins/childproc", true},
		// test doubles only for tests, the harness, the benchmark and the probe
		{"agora/httpapi", "agora/internal/adapters/webpush/pushtest", false},
		{"agora/app", "agora/search/searchtest", false},
		{"agora/command/minutes", "agora/internal/adapters/speech/speechtest", false},
		{"agora/app/testenv", "agora/internal/adapters/webpush/pushtest", true},
		{"agora/cmd/bench", "agora/internal/adapters/sfu/sfutest", true},
		{"agora/cmd/probe", "agora/internal/adapters/sheet/sheettest", true},
		{"agora/internal/adapters/speech/speechtest", "agora/internal/adapters/speech", true},
	} {
		got := violations(map[string][]string{c.pkg: {c.dep}})
		if ok := len(got) == 0; ok != c.ok {
			t.Errorf("%s importing %s: allowed %v, want %v (%v)", c.pkg, c.dep, ok, c.ok, got)
		}
	}
}
