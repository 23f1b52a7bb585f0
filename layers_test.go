// The layering of the module's packages, checked by `make lint` (and by
// every `go test ./...`): the rooms of README's layout section, from the top
// down. A package may import packages of its own room and of the rooms
// below it, never above; the write side (command/) and the read side
// (query/) never import each other. A new top-level folder must be given a
// room here.
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
// unless they are kept apart.
var layers = [][]string{
	{"cmd"},     // programs: the agora binary, the benchmark
	{"app"},     // the composition root and its test harness
	{"httpapi"}, // the transport
	{"command", "query", "projections", "relay", "live"}, // use cases and the change pipeline
	{"search", "analytics"},                              // the search read store, the warehouse
	{"internal", "web", "deploy"},                        // ground
}

// apart are rooms of one layer that must not import each other.
var apart = [][2]string{{"command", "query"}}

// room is the top-level folder of a package of the module.
func room(pkg string) string {
	rest := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
	r, _, _ := strings.Cut(rest, "/")
	return r
}

func level(r string) int {
	for i, l := range layers {
		if slices.Contains(l, r) {
			return i
		}
	}
	return -1
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
			bad = append(bad, pkg+": its folder "+from+"/ is in no layer (add it to layers)")
			continue
		}
		for _, dep := range deps {
			if dep != module && !strings.HasPrefix(dep, module+"/") {
				continue
			}
			to := room(dep)
			switch {
			case level(to) < level(from):
				bad = append(bad, pkg+" imports "+dep+", a layer above it")
			case slices.Contains(apart, [2]string{from, to}) || slices.Contains(apart, [2]string{to, from}):
				bad = append(bad, pkg+" imports "+dep+": "+from+"/ and "+to+"/ are kept apart")
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

// TestLayersCatch checks that the rule refuses what it must.
func TestLayersCatch(t *testing.T) {
	for _, c := range []struct {
		pkg, dep string
		ok       bool
	}{
		{"agora/internal/access", "agora/query/feed", false},
		{"agora/command/feed", "agora/query/feed", false},
		{"agora/query/feed", "agora/command/feed", false},
		{"agora/projections/realtime", "agora/httpapi", false},
		{"agora/httpapi", "agora/app", false},
		{"agora/app", "agora/cmd/agora", false},
		{"agora/newroom/x", "agora/internal/db", false},
		{"agora/app/testenv", "agora/app", true},
		{"agora/projections/realtime", "agora/query/feed", true},
		{"agora/projections/realtime", "agora/live", true},
		{"agora/httpapi", "agora/command/feed", true},
		{"agora/internal/access", "github.com/jackc/pgx/v5", true},
	} {
		got := violations(map[string][]string{c.pkg: {c.dep}})
		if ok := len(got) == 0; ok != c.ok {
			t.Errorf("%s importing %s: allowed %v, want %v (%v)", c.pkg, c.dep, ok, c.ok, got)
		}
	}
}
