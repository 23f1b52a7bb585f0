package openapi_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"agora/httpapi/openapi"
)

// eventSenders are the packages whose string constants name the live
// events the server sends: the realtime projection, the notification kinds'
// table and the hub's own messages.
var eventSenders = []string{"../../projections/realtime", "../../internal/rules/notice", ".."}

var eventName = regexp.MustCompile(`^[a-z]+(\.[a-z]+)+$`)

// TestLivePayloadsNameEveryEvent: the document's LivePayloads (which the
// web app's event names and payload types are generated from) lists
// exactly the events the Go side declares, so an event sent but not
// documented, or documented but never sent, fails here rather than in a
// browser that ignores it.
func TestLivePayloadsNameEveryEvent(t *testing.T) {
	b, err := openapi.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas struct {
				LivePayloads struct {
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"LivePayloads"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	documented := slices.Sorted(maps.Keys(doc.Components.Schemas.LivePayloads.Properties))
	declared := declaredEvents(t)
	if len(declared) < 30 {
		t.Fatalf("found %d event constants in %v: the parse misses them", len(declared), eventSenders)
	}
	if !slices.Equal(documented, declared) {
		t.Errorf("LivePayloads lists %v\nthe Go side declares %v", documented, declared)
	}
}

// declaredEvents reads the exported string constants that look like an
// event name (dotted lower-case words) from the sending packages' non-test
// files.
func declaredEvents(t *testing.T) []string {
	t.Helper()
	found := map[string]bool{}
	fset := token.NewFileSet()
	for _, dir := range eventSenders {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.CONST {
					continue
				}
				for _, spec := range g.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, v := range vs.Values {
						lit, ok := v.(*ast.BasicLit)
						if !ok || lit.Kind != token.STRING || i >= len(vs.Names) || !vs.Names[i].IsExported() {
							continue
						}
						if s, err := strconv.Unquote(lit.Value); err == nil && eventName.MatchString(s) {
							found[s] = true
						}
					}
				}
			}
		}
	}
	return slices.Sorted(maps.Keys(found))
}
