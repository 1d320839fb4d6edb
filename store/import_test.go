package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
)

// elementLine is a good element row of an import file.
const elementLine = `{"kind":"element","key":"k1","branch":"main","commit":"c1","depth":1,"version":"v1.0.0","identity":{"test":"t"},` +
	`"project":"shop","test":"t","text":"the Save button","created_at":"2026-01-02T03:04:05Z","used_at":"2026-01-02T03:04:05Z","hits":2,` +
	`"selectors":[{"kind":"id","value":"#save"}],"node":{"tag":"button","role":"button","name":"Save","box":[1,2,3,4]},"intent":{}}`

// trajectoryLine is a good trajectory row of an import file.
const trajectoryLine = `{"kind":"trajectory","key":"k2","branch":"main","commit":"c1","depth":1,"version":"v1.0.0","identity":{},` +
	`"project":"shop","test":"t","text":"save it","created_at":"2026-01-02T03:04:05Z","used_at":"2026-01-02T03:04:05Z","hits":0,` +
	`"steps":["--step-type CLICK --description \"the Save button\" --cache-id k1"],"postcondition":"saved","evidence":{"route":"/done"},"gaps":[]}`

// importFile writes lines to a file and opens it for ImportCache.
func importFile(t testing.TB, lines ...string) *os.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cache.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func countRows(t testing.TB, db *DB) int {
	t.Helper()
	rows, err := db.CacheRows(context.Background(), CacheFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return len(rows)
}

// TestImportRefusesWrongShapes: a line that is not a row of the shape
// export writes is an error naming its line and column, and nothing of the
// file is imported — not even its good lines.
func TestImportRefusesWrongShapes(t *testing.T) {
	swap := func(line, old, new string) string {
		if !strings.Contains(line, old) {
			t.Fatalf("%q not in the line", old)
		}
		return strings.Replace(line, old, new, 1)
	}
	for _, c := range []struct {
		name, line, want string
		col              int
	}{
		{"selectors not a list", swap(elementLine, `[{"kind":"id","value":"#save"}]`, `"notalist"`), `"selectors" is a JSON string; want a list`, strings.Index(elementLine, `[{"kind"`) + 1},
		{"selector not an object", swap(elementLine, `[{"kind":"id","value":"#save"}]`, `[1]`), `want an object`, strings.Index(elementLine, `[{"kind"`) + 1},
		{"unknown selector field", swap(elementLine, `"value":"#save"`, `"value":"#save","weight":3`), `unknown field "weight"`, strings.Index(elementLine, `[{"kind"`) + 1},
		{"node box not numbers", swap(elementLine, `"box":[1,2,3,4]`, `"box":"big"`), `"node.box" is a JSON string`, strings.Index(elementLine, `{"tag"`) + 1},
		{"unknown node field", swap(elementLine, `"tag":"button"`, `"tag":"button","onclick":"x"`), `unknown field "onclick"`, strings.Index(elementLine, `{"tag"`) + 1},
		{"intent related not a list", swap(elementLine, `"intent":{}`, `"intent":{"related":{"name":"x"}}`), `"intent.related" is a JSON object; want a list`, strings.Index(elementLine, `"intent":{}`) + len(`"intent":`) + 1},
		{"unknown top field", swap(elementLine, `"hits":2`, `"hits":2,"score":1`), `unknown field "score"`, strings.Index(elementLine, `"hits":2`) + len(`"hits":2,"score":`) + 1},
		{"hits a string", swap(elementLine, `"hits":2`, `"hits":"2"`), `"hits" is a JSON string; want a number`, strings.Index(elementLine, `"hits":2`) + len(`"hits":`) + 1},
		{"negative hits", swap(elementLine, `"hits":2`, `"hits":-2`), `must not be negative`, 0},
		{"identity a list", swap(elementLine, `"identity":{"test":"t"}`, `"identity":["t"]`), `"identity" is a JSON array; want an object`, strings.Index(elementLine, `{"test":"t"}`) + 1},
		{"no key", swap(elementLine, `"key":"k1"`, `"key":""`), `want a non-empty "key"`, strings.Index(elementLine, `"k1"`) + 1},
		{"bad kind", swap(elementLine, `"kind":"element"`, `"kind":"elephant"`), `"kind" is "elephant"`, len(`{"kind":`) + 1},
		{"element with steps", swap(elementLine, `"intent":{}`, `"intent":{},"steps":[]`), `a element row has no "steps"`, len(elementLine) + len(`,"steps":`) - 1 + 1},
		{"trajectory with selectors", swap(trajectoryLine, `"gaps":[]`, `"gaps":[],"selectors":[]`), `a trajectory row has no "selectors"`, len(trajectoryLine) + len(`,"selectors":`)},
		{"steps not strings", swap(trajectoryLine, `"steps":["--step-type CLICK --description \"the Save button\" --cache-id k1"]`, `"steps":[{"type":"CLICK"}]`), `"steps" is a JSON object; want a string`, strings.Index(trajectoryLine, `["--step`) + 1},
		{"step not a command", swap(trajectoryLine, `--step-type CLICK`, `--step-type JUMP`), `steps[0] is not a step command`, strings.Index(trajectoryLine, `["--step`) + 1},
		{"evidence unknown field", swap(trajectoryLine, `{"route":"/done"}`, `{"route":"/done","colour":"red"}`), `unknown field "colour"`, strings.Index(trajectoryLine, `{"route"`) + 1},
		{"trailing object", elementLine + ` {"kind":"element"}`, "unexpected text after the JSON object", len(elementLine) + 2},
		{"trailing garbage", elementLine + `garbage`, "unexpected text after the JSON object", len(elementLine) + 1},
		{"not JSON", `{"kind":"element",`, "cut short", 0},
		{"syntax error", `{"kind" "element"}`, "not JSON", 9},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := openTest(t)
			_, err := db.ImportCache(context.Background(), importFile(t, trajectoryLine, c.line, elementLine))
			ie, ok := errors.AsType[*ImportError](err)
			if !ok {
				t.Fatalf("err = %v, want an *ImportError", err)
			}
			if ie.Line != 2 || !strings.Contains(ie.Err.Error(), c.want) || ie.Column != c.col {
				t.Errorf("got line %d column %d %q; want line 2 column %d and %q", ie.Line, ie.Column, ie.Err, c.col, c.want)
			}
			if IsFailure(err) {
				t.Errorf("a bad line counts as a database failure")
			}
			if n := countRows(t, db); n != 0 {
				t.Errorf("%d rows imported from a file with a bad line", n)
			}
		})
	}
}

// TestImportCountsBadLines: the first bad line is named, the others counted.
func TestImportCountsBadLines(t *testing.T) {
	db := openTest(t)
	_, err := db.ImportCache(context.Background(), importFile(t, elementLine, "{", "", "[]", trajectoryLine, "x"))
	ie, ok := errors.AsType[*ImportError](err)
	if !ok || ie.Line != 2 || ie.More != 2 {
		t.Fatalf("err = %v, want line 2 and 2 more", err)
	}
}

// TestImportLongLine: a line over MaxImportLine is refused by number, and
// the lines after it are still read in step.
func TestImportLongLine(t *testing.T) {
	db := openTest(t)
	long := `{"kind":"element","key":"` + strings.Repeat("k", MaxImportLine) + `"}`
	_, err := db.ImportCache(context.Background(), importFile(t, elementLine, long, trajectoryLine, "oops"))
	ie, ok := errors.AsType[*ImportError](err)
	if !ok || ie.Line != 2 || !strings.Contains(ie.Err.Error(), "longer than") || ie.More != 1 {
		t.Fatalf("err = %v, want line 2 too long and 1 more bad line", err)
	}
	if n := countRows(t, db); n != 0 {
		t.Errorf("%d rows imported", n)
	}
}

// TestImportRoundTripAndRerun: export then import into another store gives
// the same rows; importing again (as after a process killed between
// batches) changes nothing, and keeps hits counted meanwhile.
func TestImportRoundTripAndRerun(t *testing.T) {
	ctx := context.Background()
	src := openTest(t)
	if _, err := src.ImportCache(ctx, importFile(t, elementLine, trajectoryLine)); err != nil {
		t.Fatal(err)
	}
	var exp bytes.Buffer
	if n, err := src.ExportCache(ctx, &exp); err != nil || n != 2 {
		t.Fatalf("export: %d, %v", n, err)
	}
	lines := strings.Split(strings.TrimSpace(exp.String()), "\n")
	dst := openTest(t, WithLineage(session.Lineage{Branch: "main", Main: "main", Commit: "c1", Version: "v1.0.0"}))
	// A first import that died after its first batch: the element only.
	first := lines[0]
	if !strings.Contains(first, `"kind":"element"`) {
		first = lines[1]
	}
	if _, err := dst.ImportCache(ctx, importFile(t, first)); err != nil {
		t.Fatal(err)
	}
	if err := dst.TouchCache(ctx, "k1"); err != nil { // a run hit it meanwhile: 3 hits
		t.Fatal(err)
	}
	for range 2 {
		if n, err := dst.ImportCache(ctx, importFile(t, lines...)); err != nil || n != 2 {
			t.Fatalf("import: %d, %v", n, err)
		}
	}
	want, _ := src.CacheRows(ctx, CacheFilter{})
	got, _ := dst.CacheRows(ctx, CacheFilter{})
	if len(got) != 2 {
		t.Fatalf("%d rows", len(got))
	}
	for i := range got {
		if got[i].Kind == KindElement {
			if got[i].Hits != want[i].Hits+1 {
				t.Errorf("hits %d, want %d (the run's hit kept)", got[i].Hits, want[i].Hits+1)
			}
			got[i].Hits, got[i].UsedAt = want[i].Hits, want[i].UsedAt
		}
		g, _ := json.Marshal(got[i])
		w, _ := json.Marshal(want[i])
		if !bytes.Equal(g, w) {
			t.Errorf("row %d:\n got %s\nwant %s", i, g, w)
		}
	}
}

// writeImportFile writes n element rows of about 1 KB to a file.
func writeImportFile(t testing.TB, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "big.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	text := strings.Repeat("lorem ipsum ", 60)
	for i := range n {
		fmt.Fprintf(w, `{"kind":"element","key":"key-%08d","branch":"main","commit":"c1","depth":1,"version":"v1.0.0","identity":{},`+
			`"project":"shop","test":"t%d","text":"the button %d","created_at":"2026-01-02T03:04:05Z","used_at":"2026-01-02T03:04:05Z","hits":0,`+
			`"selectors":[{"kind":"id","value":"#b%d"},{"kind":"text","value":"button:has-text(\"%d\")"}],"node":{"tag":"button","role":"button","name":"B %d","text":%q,"box":[1,2,3,4]},"intent":{}}`+"\n",
			i, i%50, i, i, i, i, text)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestImportLetsWritersIn: while a large import runs, another connection
// to the file (as another e2e process) keeps writing runs, each within a
// busy timeout far shorter than the import. One transaction for the whole
// import held the write lock throughout, and such writes failed with
// "database is locked".
func TestImportLetsWritersIn(t *testing.T) {
	if testing.Short() {
		t.Skip("imports 20,000 rows")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "e2e.db")
	importer, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer importer.Close()
	const busy, rows = 2 * time.Second, 20_000
	writer, err := Open(ctx, path, WithBusyTimeout(busy))
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	f, err := os.Open(writeImportFile(t, rows))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()

	var done atomic.Bool
	imported := make(chan error, 1)
	var began time.Time
	go func() {
		began = time.Now()
		_, err := importer.ImportCache(ctx, f)
		done.Store(true)
		imported <- err
	}()
	writes := 0
	var werr error
	tick := time.NewTicker(10 * time.Millisecond) // a run writes now and then, not all the time
	defer tick.Stop()
	for ; !done.Load(); <-tick.C {
		r := &session.Run{Project: "shop"}
		if werr = writer.StartRun(ctx, r); werr != nil {
			break
		}
		r.Status = "passed"
		if werr = writer.FinishRun(ctx, r); werr != nil {
			break
		}
		writes++
	}
	if err := <-imported; err != nil {
		t.Fatal(err)
	}
	took := time.Since(began)
	if werr != nil {
		t.Fatalf("a write during the import (after %d writes, import took %s): %v", writes, took, werr)
	}
	if took < busy {
		t.Logf("the import took %s, less than the writer's busy timeout %s: this machine is too fast for the test to prove anything", took, busy)
	}
	if n := countRows(t, importer); n != rows {
		t.Errorf("%d rows imported", n)
	}
	t.Logf("import of %d rows took %s; %d runs written meanwhile", rows, took, writes)
}

func TestImportErrorCountsReadInTheSingular(t *testing.T) {
	e := &ImportError{Line: 2, Err: errors.New("bad"), More: 1}
	if got, want := e.Error(), "line 2: bad (and 1 more bad line)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	e.More = 3
	if got, want := e.Error(), "line 2: bad (and 3 more bad lines)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
