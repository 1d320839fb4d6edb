package browser

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"
)

// BenchmarkPageJSVersusBaseline compares this page.js with an older one in
// the same page, turn by turn, timing in the page (performance.now), so
// that a loaded machine slows both alike: the snapshot of the 2,000-row
// table (BenchmarkSnapshot2kRows's walk), that of the accessible-names page
// (iframe, shadow root, labels: the name computations) and the
// cached-element resolve of
// BenchmarkReplayStep. It reports each side's mean and least milliseconds
// per call and their ratios (current/baseline); on a loaded machine the
// least is the steadier figure. It runs only when E2E_BASELINE_PAGEJS
// names the older page.js, e.g.
//
//	git show OLD:session/browser/page.js > /tmp/base.js
//	E2E_BASELINE_PAGEJS=/tmp/base.js go test ./session/browser -run '^$' -bench PageJSVersus
func BenchmarkPageJSVersusBaseline(b *testing.B) {
	path := os.Getenv("E2E_BASELINE_PAGEJS")
	if path == "" {
		b.Skip("E2E_BASELINE_PAGEJS is not set")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	base := strings.ReplaceAll(string(src), "window.__e2e", "window.__e2eBase")
	install := func(p *Page) {
		if err := p.Eval(context.Background(), nil, "() => {"+base+"}"); err != nil {
			b.Fatal(err)
		}
	}
	// k calls of fn on each side, twice, alternating which goes first
	const turn = `(fn, arg, k) => {
	  const t = { cur: 0, base: 0, curMin: Infinity, baseMin: Infinity };
	  for (let i = 0; i < 2; i++) {
	    for (const side of i ? ['base', 'cur'] : ['cur', 'base']) {
	      const o = side === 'cur' ? window.__e2e : window.__e2eBase;
	      const s = performance.now();
	      for (let j = 0; j < k; j++) o[fn](...arg);
	      const d = (performance.now() - s) / k;
	      t[side] += d;
	      t[side + 'Min'] = Math.min(t[side + 'Min'], d);
	    }
	  }
	  return t;
	}`
	// k calls are timed together: the page's clock ticks in 0.1 ms
	run := func(b *testing.B, p *Page, fn string, k int, arg func() []any) {
		var cur, bas float64
		curMin, basMin := math.Inf(1), math.Inf(1)
		n := 0
		for b.Loop() {
			var t struct{ Cur, Base, CurMin, BaseMin float64 }
			if err := p.Eval(context.Background(), &t, turn, fn, arg(), k); err != nil {
				b.Fatal(err)
			}
			cur += t.Cur
			bas += t.Base
			curMin, basMin = min(curMin, t.CurMin), min(basMin, t.BaseMin)
			n += 2
		}
		b.ReportMetric(cur/float64(n), "cur-ms")
		b.ReportMetric(bas/float64(n), "base-ms")
		b.ReportMetric(cur/bas, "ratio")
		b.ReportMetric(curMin, "cur-min-ms")
		b.ReportMetric(basMin, "base-min-ms")
		b.ReportMetric(curMin/basMin, "min-ratio")
	}
	opts := map[string]any{"maxNodes": 0, "maxText": DefaultMaxText, "maxTotalText": DefaultMaxTotalText}
	b.Run("Snapshot2kRows", func(b *testing.B) {
		p := benchPage(b, "/rows?n=2000")
		install(p)
		run(b, p, "snapshotText", 1, func() []any { return []any{opts} })
	})
	b.Run("SnapshotA11y", func(b *testing.B) {
		p := benchPage(b, "/a11y")
		install(p)
		run(b, p, "snapshotText", 20, func() []any { return []any{opts} })
	})
	b.Run("ResolveCached", func(b *testing.B) {
		p := benchPage(b, "/product")
		install(p)
		var sels []map[string]string
		err := p.Eval(context.Background(), &sels, `() => {
		  window.__e2e.snapshotText({});
		  const el = Array.from(document.querySelectorAll('button')).find((e) => /Add to cart/.test(e.textContent));
		  const rec = window.__e2e.resolve && Object.getOwnPropertySymbols(el).map((s) => el[s]).find((r) => r && r.ref);
		  return window.__e2e.captureElement(rec.ref, []).selectors;
		}`)
		if err != nil || len(sels) == 0 {
			b.Fatal(err, sels)
		}
		run(b, p, "resolveCached", 50, func() []any { return []any{sels} })
	})
}
