package testfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// treeDepth is how deeply lists and mappings nest in the parsed tree n:
// 0 for a scalar, 1 for a flat list or mapping.
func treeDepth(n ast.Node) int {
	switch v := n.(type) {
	case nil:
		return 0
	case *ast.DocumentNode:
		return treeDepth(v.Body)
	case *ast.MappingNode:
		d := 0
		for _, mv := range v.Values {
			d = max(d, treeDepth(mv.Key), treeDepth(mv.Value))
		}
		return 1 + d
	case *ast.MappingValueNode:
		return 1 + max(treeDepth(v.Key), treeDepth(v.Value))
	case *ast.SequenceNode:
		d := 0
		for _, e := range v.Values {
			d = max(d, treeDepth(e))
		}
		return 1 + d
	case *ast.MappingKeyNode:
		return treeDepth(v.Value)
	case *ast.TagNode:
		return treeDepth(v.Value)
	case *ast.AnchorNode:
		return treeDepth(v.Value)
	}
	return 0
}

// scanDepth is the deepest nesting tooDeep finds in src.
func scanDepth(src string) int {
	rs := []rune(src)
	for k := 0; ; k++ {
		if _, _, _, deep := tooDeep(rs, k); !deep {
			return k
		}
	}
}

// parsedDepth parses src as the decoder does and returns the depth of its
// deepest document; ok is false when it does not parse.
func parsedDepth(src []byte) (int, bool) {
	f, err := parser.ParseBytes(src, 0, parser.AllowDuplicateMapKey())
	if err != nil {
		return 0, false
	}
	d := 0
	for _, doc := range f.Docs {
		d = max(d, treeDepth(doc))
	}
	return d, true
}

var nestingCases = []struct {
	name string
	src  string
	want int
}{
	{"scalar", "a\n", 0},
	{"mapping", "a: b\nc: d\n", 1},
	{"test file", "name: t\nsteps:\n  - click: x\n  - type: { into: y, text: \"[z\" }\n", 4},
	{"sequence at key column", "a:\n- b\n- c: d\n", 3},
	{"compact sequences", "- - - x\n", 3},
	{"flow", "a: [[b], {c: [d]}]\n", 4},
	{"flow pair", "- [a: b]\n", 3},
	{"flow key", "[a]: b\n", 2},
	{"flow key in flow", "[[k]: v]\n", 3},
	{"quoted brackets", "a: \"[[[{{{\"\nb: '[[['' [[['\n", 1},
	{"escaped quote", "a: \"\\\"[[[\"\n", 1},
	{"comment", "a: b # [[[[\n# {{{{\n", 1},
	{"plain text", "a: the [x] button [[[\n", 1},
	{"block scalar", "a: |\n  [[[[\n  \"\n  {{{\nb: [c]\n", 2},
	{"folded after dash", "- >-\n  [[[ '\n- [x]\n", 2},
	{"tag", "a: !t[[[ [b]\n", 2},
	{"anchor", "a: &x [b]\nc: *x\n", 2},
	{"multi-line plain", "a: b\n  [c\nd: e\n", 1},
	{"documents", "a: [b]\n---\n- [c]\n", 2},
}

// TestNestingCounts checks the depth the pre-scan finds on common forms
// against the depth of the parsed tree.
func TestNestingCounts(t *testing.T) {
	for _, tt := range nestingCases {
		t.Run(tt.name, func(t *testing.T) {
			if got := scanDepth(tt.src); got != tt.want {
				t.Errorf("scan depth = %d, want %d in\n%s", got, tt.want, tt.src)
			}
			if d, ok := parsedDepth([]byte(tt.src)); ok && d != tt.want {
				t.Errorf("parsed depth = %d, want %d (the case is wrong) in\n%s", d, tt.want, tt.src)
			}
		})
	}
}

// FuzzNesting checks that the pre-scan never finds less nesting than the
// parser builds: whatever parses, the scan counts at least as deep.
func FuzzNesting(f *testing.F) {
	for _, tt := range nestingCases {
		f.Add([]byte(tt.src))
	}
	files, _ := filepath.Glob("testdata/*" + Suffix)
	ex, _ := filepath.Glob("../../examples/*.yaml")
	for _, p := range append(files, ex...) {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte("a: [b, [c: [d: e]], {f: [g]}]\n- \"x\n  [y\" [z]\n"))
	f.Add([]byte("? [a]\n: [b]\n&a [c]: *a\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 2000 || strings.Count(string(src), "[")+strings.Count(string(src), "{") > 200 {
			return // the parser is slow on deep input: keep cases small
		}
		d := newDecoder("f.yaml", src)
		want, ok := parsedDepth(d.src)
		if !ok || want == 0 {
			return
		}
		if _, _, _, deep := tooDeep([]rune(string(d.src)), want-1); !deep {
			t.Fatalf("the parsed tree is %d deep, the scan finds %d, in\n%q", want, scanDepth(string(d.src)), d.src)
		}
	})
}
