package session

import (
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"
)

// owners is the one package of the project that imports each outside
// module (DESIGN.md section 8: one package owns each outside dependency;
// the others use it through that package's types). A module new to the
// project gets its owner here; a second importer fails the test below.
var owners = map[string]string{
	"github.com/charmbracelet/bubbles":       "tui",
	"github.com/charmbracelet/bubbletea":     "tui",
	"github.com/charmbracelet/lipgloss":      "tui",
	"github.com/charmbracelet/x":             "tui",
	"github.com/go-rod/rod":                  "session/browser",
	"github.com/ysmood/gson":                 "session/browser", // rod's JSON values
	"github.com/goccy/go-yaml":               "session/testfile",
	"github.com/google/jsonschema-go":        "mcp", // the MCP SDK's schemas
	"github.com/modelcontextprotocol/go-sdk": "mcp",
	"github.com/jackc/pgx":                   "store/postgres",
	"github.com/openai/openai-go":            "agent",
	"github.com/spf13/cobra":                 "cmd/e2e",
	"github.com/spf13/pflag":                 "cmd/e2e",
	"golang.org/x/text":                      "session",
	"modernc.org/sqlite":                     "store/sqlite",
}

const module = "github.com/e2e-dev/e2e"

// outsideModule is the module path of an import that is neither the
// standard library's nor the project's ("" for those): the first three
// elements of a github.com or golang.org path, else the first two.
func outsideModule(imp string) string {
	first, _, _ := strings.Cut(imp, "/")
	if !strings.Contains(first, ".") || imp == module || strings.HasPrefix(imp, module+"/") {
		return ""
	}
	parts := strings.Split(imp, "/")
	n := 2
	if first == "github.com" || first == "golang.org" {
		n = 3
	}
	return strings.Join(parts[:min(n, len(parts))], "/")
}

// TestOneOwnerPerOutsideDependency: every outside module the project's
// code imports (tests aside) is imported by its owner alone, as go list
// reports the imports of every package of the module.
func TestOneOwnerPerOutsideDependency(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"/...")
	cmd.Env = append(os.Environ(), "GOFLAGS=") // -json in GOFLAGS (go test -json runs) would refuse -f
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	importers := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		pkg := strings.TrimPrefix(strings.TrimPrefix(f[0], module), "/")
		for _, imp := range f[1:] {
			if m := outsideModule(imp); m != "" && !slices.Contains(importers[m], pkg) {
				importers[m] = append(importers[m], pkg)
			}
		}
	}
	if len(importers) == 0 {
		t.Fatal("go list found no outside import: the test reads nothing")
	}
	mods := make([]string, 0, len(importers))
	for m := range importers {
		mods = append(mods, m)
	}
	sort.Strings(mods)
	for _, m := range mods {
		owner, ok := owners[m]
		switch {
		case !ok:
			t.Errorf("%s is imported by %v and has no owner: name the one package that owns it in owners", m, importers[m])
		case len(importers[m]) != 1 || importers[m][0] != owner:
			t.Errorf("%s is imported by %v; only its owner %s may import it", m, importers[m], owner)
		}
	}
}

func TestOutsideModule(t *testing.T) {
	for imp, want := range map[string]string{
		"fmt":                             "",
		"net/http":                        "",
		module + "/session/browser":       "",
		"github.com/go-rod/rod/lib/proto": "github.com/go-rod/rod",
		"golang.org/x/text/unicode/norm":  "golang.org/x/text",
		"modernc.org/sqlite":              "modernc.org/sqlite",
		"modernc.org/sqlite/lib":          "modernc.org/sqlite",
	} {
		if got := outsideModule(imp); got != want {
			t.Errorf("outsideModule(%q) = %q, want %q", imp, got, want)
		}
	}
}
