package browser

import (
	"context"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/locate"
)

// reidBenchSetup records "the Delete button in the Item 1500 row" on the
// 2,000-row page, then takes every test id off the page (a build that
// renamed them): the cached selectors, all anchored on test ids, find
// nothing, and the element must be re-identified.
func reidBenchSetup(b *testing.B) (*Page, *Captured, locate.Result) {
	p := benchPage(b, "/rows?n=2000")
	ctx := context.Background()
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		b.Fatal(err)
	}
	res := locate.Locate(s, "the Delete button in the Item 1500 row")
	if res.Target == nil {
		b.Fatal(res.Detail)
	}
	c, err := p.Capture(ctx, res.Target.Node.Ref, nil)
	if err != nil {
		b.Fatal(err)
	}
	// (then laid out again, as a page is by the time a replay reaches it:
	// otherwise the first timed call pays the restyle of 2,000 rows)
	if err := p.Eval(ctx, nil, `() => { for (const e of document.querySelectorAll('[data-testid]')) e.removeAttribute('data-testid'); void document.body.getBoundingClientRect(); }`); err != nil {
		b.Fatal(err)
	}
	if r, err := p.ResolveCached(ctx, c.Selectors); err != nil || r.Reason == "" {
		b.Fatalf("the selectors still find the element (%v, %+v)", err, r)
	}
	return p, c, res
}

// BenchmarkReidentify2kRows: re-identification of a cached row button on
// the 2,000-row page after its selectors broke, as the runner does it: the
// page's candidates scored in one round trip, then the intent check of the
// best (its name unchanged, so without a snapshot). Compare with
// BenchmarkFullLocate2kRows, what the runner paid before re-identification.
func BenchmarkReidentify2kRows(b *testing.B) {
	p, c, res := reidBenchSetup(b)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		re, err := p.Reidentify(ctx, c.Node, c.Context)
		if err != nil || re == nil {
			b.Fatal(err, re)
		}
		if re.Second != nil && re.Score-re.SecondScore < 0.1 {
			b.Fatalf("not clearly ahead: %.2f vs %.2f", re.Score, re.SecondScore)
		}
		if ok, why := locate.Check(&ax.Snapshot{}, re.Best.Node, re.Best.Ancestors, res.Intent); !ok {
			b.Fatal(why)
		}
		if row := re.Best.Ancestors[len(re.Best.Ancestors)-2]; !strings.HasPrefix(row.Name, "Item 1500 ") {
			b.Fatalf("re-identified in %s", row.Line())
		}
	}
}

// BenchmarkFullLocate2kRows: the same step located from scratch on the
// same page: a snapshot and the local locator.
func BenchmarkFullLocate2kRows(b *testing.B) {
	p, _, _ := reidBenchSetup(b)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		s, err := p.Snapshot(ctx, SnapshotOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if res := locate.Locate(s, "the Delete button in the Item 1500 row"); res.Target == nil {
			b.Fatal(res.Detail)
		}
	}
}
