package testfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// problems returns the List that err must be.
func problems(t *testing.T, err error) List {
	t.Helper()
	var list List
	if !errors.As(err, &list) || len(list) == 0 {
		t.Fatalf("error %T %v, want a non-empty List", err, err)
	}
	return list
}

// TestNestingBombRefused: 200 KB of "[" (which took the parser 24 s and
// 15 GB) is refused before parsing, at the bracket that goes past the
// limit.
func TestNestingBombRefused(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		col       int
	}{
		// "steps:" is one level, so the 64th "[" (column 8+63) is the 65th
		{"lists", "name: bomb\nsteps: " + strings.Repeat("[", 200_000), 8 + 63},
		{"mappings", "name: bomb\nsteps: " + strings.Repeat("{a: ", 50_000), 8 + 63*4},
		// each "[" and each ":" making its entry a pair are a level: the
		// ":" of the 32nd entry is the 65th
		{"pairs", "name: bomb\nsteps: " + strings.Repeat("[a: ", 50_000), 8 + 31*4 + 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("bomb.e2e.yaml", []byte(tt.src))
			list := problems(t, err)
			if len(list) != 1 {
				t.Fatalf("%d problems, want 1: %v", len(list), list[:min(3, len(list))])
			}
			e := list[0]
			if e.Line != 2 || e.Col != tt.col || !strings.Contains(e.Msg, "nested more than 64 levels deep") {
				t.Errorf("got %s, want bomb.e2e.yaml:2:%d: nested more than 64 levels deep", e.Error(), tt.col)
			}
		})
	}
}

// TestNestingInTextIsNotCounted: brackets in quoted strings, comments,
// block scalars and plain text are not nesting.
func TestNestingInTextIsNotCounted(t *testing.T) {
	deep := strings.Repeat("[{", 100)
	src := "name: '" + deep + "'\n" +
		"# " + deep + "\n" +
		"context: |\n  " + deep + "\n  \"" + deep + "\n" +
		"url: \"/" + deep + "\\\"" + deep + "\"\n" +
		"steps:\n  - click: the " + deep + " button # " + deep + "\n"
	test, err := Parse("text.e2e.yaml", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if test.Steps[0].Description != "the "+deep+" button" {
		t.Errorf("description %q", test.Steps[0].Description)
	}
}

// nested returns a test file whose deepest list is depth levels deep in
// the parsed tree, in flow or block style.
func nested(t *testing.T, depth int, flow bool) string {
	t.Helper()
	var src string
	if flow {
		// the file's mapping is one level, steps' list the second
		src = "name: deep\nsteps: " + strings.Repeat("[", depth-1) + "x" + strings.Repeat("]", depth-1) + "\n"
	} else {
		var b strings.Builder
		// the file's mapping is one level, and each "- a:" two more
		b.WriteString("name: deep\nsteps:\n")
		k := (depth - 1) / 2
		for i := range k {
			b.WriteString(strings.Repeat("  ", i) + "- a:\n")
		}
		if (depth-1)%2 == 1 {
			b.WriteString(strings.Repeat("  ", k) + "- x\n")
		}
		src = b.String()
	}
	if got, ok := parsedDepth([]byte(src)); !ok || got != depth {
		t.Fatalf("the parser reads %d levels (ok %v), want %d, in\n%s", got, ok, depth, src)
	}
	return src
}

// TestNestingLimitIsExact: a file 64 levels deep is read (and its steps
// judged as usual), one 65 deep is refused, in flow and block style.
func TestNestingLimitIsExact(t *testing.T) {
	for _, flow := range []bool{true, false} {
		t.Run(fmt.Sprintf("flow=%v", flow), func(t *testing.T) {
			_, err := Parse("deep.e2e.yaml", []byte(nested(t, MaxDepth, flow)))
			for _, e := range problems(t, err) {
				if strings.Contains(e.Msg, "nested") {
					t.Fatalf("64 levels refused: %s", e.Error())
				}
			}
			_, err = Parse("deep.e2e.yaml", []byte(nested(t, MaxDepth+1, flow)))
			list := problems(t, err)
			if len(list) != 1 || !strings.Contains(list[0].Msg, "nested more than 64 levels deep") {
				t.Fatalf("65 levels: %v", list)
			}
		})
	}
}

// TestConfigNestingRefused: e2e.yaml has the same limit.
func TestConfigNestingRefused(t *testing.T) {
	_, err := ParseConfig("e2e.yaml", []byte("baseURL: http://x\ntests: "+strings.Repeat("[", 100_000)))
	list := problems(t, err)
	if len(list) != 1 || list[0].Line != 2 || list[0].Col != 8+63 || !strings.Contains(list[0].Msg, "nested more than 64") {
		t.Fatalf("got %v", list)
	}
}

// bigTest returns a valid test file of exactly size bytes: steps padded
// with a comment line.
func bigTest(size int) []byte {
	var b strings.Builder
	b.WriteString("name: big\nsteps:\n")
	step := "  - click: the Sign in button\n"
	for b.Len()+len(step)+100 < size {
		b.WriteString(step)
	}
	pad := size - b.Len() - 3
	b.WriteString("# ")
	b.WriteString(strings.Repeat("x", pad))
	b.WriteString("\n")
	return []byte(b.String())
}

// TestFileSizeLimit: a file of 1 MiB is read; one byte more is refused
// with its size, pointing at where it passes the limit, for test files
// (from disk and from memory) and for e2e.yaml.
func TestFileSizeLimit(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.e2e.yaml")
	if err := os.WriteFile(ok, bigTest(MaxFileSize), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseFile(ok); err != nil {
		t.Fatalf("1 MiB file: %.300v", err)
	}
	big := bigTest(MaxFileSize + 1)
	path := filepath.Join(dir, "big.e2e.yaml")
	if err := os.WriteFile(path, big, 0o644); err != nil {
		t.Fatal(err)
	}
	// the limit falls on the last byte, the last line's break
	check := func(t *testing.T, err error, src []byte, want string) {
		t.Helper()
		lines := strings.Count(string(src), "\n")
		wantCol := len(src) - 1 - strings.LastIndexByte(string(src[:len(src)-1]), '\n')
		list := problems(t, err)
		if len(list) != 1 {
			t.Fatalf("%d problems", len(list))
		}
		e := list[0]
		if e.Line != lines || e.Col != wantCol || !strings.Contains(e.Msg, want) || !strings.Contains(e.Msg, "1048577 bytes, over the limit of 1048576 bytes") {
			t.Errorf("got %s, want line %d col %d", e.Error(), lines, wantCol)
		}
		if x := e.Excerpt(); utf8.RuneCountInString(x) > 2*MaxExcerpt+40 {
			t.Errorf("excerpt of %d characters", utf8.RuneCountInString(x))
		}
	}
	t.Run("ParseFile", func(t *testing.T) {
		_, err := ParseFile(path)
		check(t, err, big, "the test file is too large")
	})
	t.Run("Parse", func(t *testing.T) {
		_, err := Parse(path, big)
		check(t, err, big, "the test file is too large")
	})
	t.Run("CRLF", func(t *testing.T) {
		crlf := []byte(strings.ReplaceAll(string(big), "\n", "\r\n")[:MaxFileSize+1])
		_, err := Parse(path, crlf)
		e := problems(t, err)[0]
		wantLine := strings.Count(string(crlf[:MaxFileSize]), "\r\n") + 1
		if e.Line != wantLine || strings.Contains(e.Source, "\r") {
			t.Errorf("got line %d source %q, want line %d", e.Line, e.Source, wantLine)
		}
	})
	t.Run("LoadConfig", func(t *testing.T) {
		cfg := []byte("baseURL: http://localhost\n" + string(big[len("baseURL: http://localhost\n"):]))
		cfg[len("baseURL: http://localhost\n")] = '#'
		if err := os.WriteFile(filepath.Join(dir, ConfigFile), cfg, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadConfig(dir)
		check(t, err, cfg, "e2e.yaml is too large")
	})
}

var problemHead = regexp.MustCompile(`(?m)^flood\.e2e\.yaml:\d+:\d+: `)

// TestProblemFloodIsBounded: a file with thousands of bad steps prints
// the first 50 problems and how many more there are.
func TestProblemFloodIsBounded(t *testing.T) {
	src := "name: flood\nsteps:\n" + strings.Repeat("  - clik: the button\n", 3000)
	_, err := Parse("flood.e2e.yaml", []byte(src))
	list := problems(t, err)
	if len(list) != 3000 {
		t.Fatalf("%d problems, want all 3000 kept", len(list))
	}
	out := err.Error()
	if n := len(problemHead.FindAllString(out, -1)); n != MaxShown {
		t.Errorf("%d problems printed, want %d", n, MaxShown)
	}
	if !strings.HasSuffix(out, "\n\n… and 2950 more problems") {
		t.Errorf("output ends %q", out[max(0, len(out)-80):])
	}
	if !strings.HasPrefix(out, "flood.e2e.yaml:3:5: unknown key \"clik\"") {
		t.Errorf("output starts %q", out[:min(len(out), 80)])
	}
}

// TestLongLineIsCut: a problem on a 20 MB line (refused for its size) and
// one in the middle of a long line echo a cut line, with the marker still
// under the offending text.
func TestLongLineIsCut(t *testing.T) {
	t.Run("20 MB line", func(t *testing.T) {
		src := "name: long\nsteps:\n  - click: " + strings.Repeat("x", 20<<20) + "\n"
		_, err := Parse("long.e2e.yaml", []byte(src))
		out := err.Error()
		if len(out) > 1000 {
			t.Fatalf("%d bytes of error output: %.300s", len(out), out)
		}
		if !strings.Contains(out, "long.e2e.yaml:3:") || !strings.Contains(out, "…") {
			t.Errorf("output:\n%s", out)
		}
	})
	t.Run("marker", func(t *testing.T) {
		pad := strings.Repeat("y", 50_000)
		src := "name: long\nsteps:\n  - type: { into: " + pad + ", txet: x, text: " + pad + " }\n"
		_, err := Parse("long.e2e.yaml", []byte(src))
		list := problems(t, err)
		x := list[0].Excerpt()
		lines := strings.Split(x, "\n")
		if len(lines) != 2 {
			t.Fatalf("excerpt %q", x)
		}
		src0, under := []rune(lines[0]), []rune(lines[1])
		at := strings.IndexRune(string(under), '^')
		if at < 0 || len(src0) > MaxExcerpt+20 {
			t.Fatalf("excerpt of %d characters:\n%s", len(src0), x)
		}
		caret := utf8.RuneCountInString(string(under)[:at])
		if got := string(src0[caret : caret+4]); got != "txet" {
			t.Errorf("marker under %q, want under txet:\n%s", got, x)
		}
		if !strings.Contains(lines[0], "…") {
			t.Errorf("no … in %s", lines[0])
		}
	})
}

func TestCutLine(t *testing.T) {
	long := strings.Repeat("a", 100) + "BAD" + strings.Repeat("b", 300)
	tests := []struct {
		line       string
		col, width int
		want       string // the text under the marker
		wantWidth  int
	}{
		{"short line", 7, 4, "line", 4},
		{long, 101, 3, "BAD", 3},
		{long, 1, 5, "aaaaa", 5},
		{long, 403, 1, "b", 1},
		{long, 101, 1000, "BAD", 302},
	}
	for _, tt := range tests {
		got, at, width := cutLine(tt.line, tt.col, tt.width)
		rs := []rune(got)
		if len(rs) > MaxExcerpt+2 {
			t.Errorf("cut to %d characters", len(rs))
		}
		if at < 1 || at-1+len(tt.want) > len(rs) || !strings.HasPrefix(string(rs[at-1:]), tt.want[:min(len(tt.want), 3)]) {
			t.Errorf("cutLine(col %d) = %q at %d, want the marker on %q", tt.col, got, at, tt.want)
		}
		if tt.wantWidth != 0 && width > tt.wantWidth {
			t.Errorf("width %d, want at most %d", width, tt.wantWidth)
		}
	}
}
