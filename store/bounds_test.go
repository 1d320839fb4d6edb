package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session"
)

// TestImportRefusesOversizeRows: a row whose lists are over their bounds
// (100,000 selectors, thousands of context texts or steps) is refused at
// its line and column, naming the list and the bound, and nothing of the
// file is imported; a row at the bounds imports.
func TestImportRefusesOversizeRows(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, testTarget(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	list := func(n int, item func(i int) string) string {
		var b strings.Builder
		b.WriteByte('[')
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(item(i))
		}
		b.WriteByte(']')
		return b.String()
	}
	sels := func(n int) string {
		return list(n, func(i int) string { return fmt.Sprintf(`{"kind":"css","value":"#s%d"}`, i) })
	}
	steps := func(n int) string {
		return list(n, func(int) string { return `"--step-type CLICK --description \"the Save button\""` })
	}
	swap := func(line, old, new string) string {
		if !strings.Contains(line, old) {
			t.Fatalf("%q not in the line", old)
		}
		return strings.Replace(line, old, new, 1)
	}
	const selectorsField = `"selectors":[{"kind":"id","value":"#save"}]`
	for _, c := range []struct {
		name, line, want string
	}{
		{"selectors", swap(elementLine, selectorsField, `"selectors":`+sels(100_000)), "100000 selectors, at most 32"},
		{"a selector's bytes", swap(elementLine, selectorsField, `"selectors":[{"kind":"css","value":"`+strings.Repeat("a", 20_000)+`"}]`), "20000 bytes in selector 1, at most 16384"},
		{"context near", swap(elementLine, `"intent":{}`, `"intent":{},"context":{"near":`+list(5000, func(i int) string { return fmt.Sprintf(`"t%d"`, i) })+`}`), "5000 context.near texts, at most 16"},
		{"context path", swap(elementLine, `"intent":{}`, `"intent":{},"context":{"path":`+list(100, func(int) string { return `{"tag":"div"}` })+`}`), "100 context.path containers, at most 16"},
		{"intent relations", swap(elementLine, `"intent":{}`, `"intent":{"related":`+list(64, func(int) string { return `{"relation":"in","role":"row"}` })+`}`), "64 intent relations, at most 16"},
		{"node attributes", swap(elementLine, `"box":[1,2,3,4]`, `"box":[1,2,3,4],"attrs":{`+strings.TrimSuffix(strings.TrimPrefix(list(40, func(i int) string { return fmt.Sprintf(`"a%d":"v"`, i) }), "["), "]")+`}`), "40 node attributes, at most 32"},
		{"steps", swap(trajectoryLine, `"steps":["--step-type CLICK --description \"the Save button\" --cache-id k1"]`, `"steps":`+steps(1001)), "1001 steps, at most 1000"},
		{"evidence", swap(trajectoryLine, `"evidence":{"route":"/done"}`, `"evidence":{"route":"/done","appeared":`+list(40, func(i int) string { return fmt.Sprintf(`"button \"b%d\""`, i) })+`}`), "40 evidence lines that appeared, at most 32"},
	} {
		t.Run(c.name, func(t *testing.T) {
			n, err := db.ImportCache(ctx, importFile(t, elementLine, c.line))
			ie, ok := errors.AsType[*ImportError](err)
			if !ok || n != 0 || ie.Line != 2 || ie.Column == 0 || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "stall the page") {
				t.Fatalf("ImportCache = %d, %v; want line 2 refused: %s", n, err, c.want)
			}
			if got := countRows(t, db); got != 0 {
				t.Errorf("%d rows imported from a file with a bad line", got)
			}
		})
	}
	// At the bounds, a row imports.
	if n, err := db.ImportCache(ctx, importFile(t, swap(elementLine, selectorsField, `"selectors":`+sels(session.MaxSelectors)), swap(trajectoryLine, `"steps":["--step-type CLICK --description \"the Save button\" --cache-id k1"]`, `"steps":`+steps(session.MaxTrajectorySteps)))); err != nil || n != 2 {
		t.Fatalf("rows at the bounds: %d, %v", n, err)
	}
}

// TestOversizeRowIsUnreadable: a stored row over a bound (written past the
// import, or by an older one) reads as an unreadable row that says what is
// over — the runner's miss — and is never returned to be replayed.
func TestOversizeRowIsUnreadable(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, testTarget(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	must(t, db.PutCache(ctx, sampleEntry("k1")))
	must(t, db.PutTrajectory(ctx, &session.Trajectory{Key: "t1", Goal: "g", Steps: []string{`--step-type CLICK --description "the Save button"`}}))
	sels := make([]session.Selector, 100_000)
	for i := range sels {
		sels[i] = session.Selector{Kind: "css", Value: fmt.Sprintf("#s%d", i)}
	}
	big, _ := json.Marshal(sels)
	steps, _ := json.Marshal(make([]string, 5000))
	if _, err := db.write.ExecContext(ctx, rebindFor(db, `UPDATE element_cache SET selectors = ?`), string(big)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.write.ExecContext(ctx, rebindFor(db, `UPDATE trajectories SET steps = ?`), string(steps)); err != nil {
		t.Fatal(err)
	}
	e, err := db.Cache(ctx, "k1")
	oe, ok := errors.AsType[*session.OversizeRowError](err)
	if e != nil || !errors.Is(err, session.ErrUnreadableRow) || !ok || oe.MissReason() != "oversize-row: 100000 selectors, at most 32" {
		t.Errorf("Cache of an oversize row: %v, %v; want an oversize, unreadable row", e != nil, err)
	}
	tr, err := db.Trajectory(ctx, "t1")
	if tr != nil || !errors.Is(err, session.ErrUnreadableRow) || !strings.Contains(err.Error(), "5000 steps, at most 1000") {
		t.Errorf("Trajectory of an oversize row: %v, %v", tr != nil, err)
	}
}

// rebindFor returns query as db's engine takes it.
func rebindFor(db *DB, query string) string {
	if db.eng.rebind {
		return rebind(query)
	}
	return query
}
