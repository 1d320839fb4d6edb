package browser

import (
	"context"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/locate"
)

// BenchmarkReplayStep: one cached click as `e2e run` replays it: all cached
// selectors evaluated in one round trip, the vote, the intent check, the
// actionability wait and the click.
func BenchmarkReplayStep(b *testing.B) {
	p := benchPage(b, "/product")
	ctx := context.Background()
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		b.Fatal(err)
	}
	res := locate.Locate(s, "the Add to cart button")
	if res.Target == nil {
		b.Fatal(res.Detail)
	}
	sels, _, err := p.CaptureElement(ctx, res.Target.Node.Ref, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		r, err := p.ResolveCached(ctx, sels)
		if err != nil || r.Reason != "" {
			b.Fatal(err, r)
		}
		if ok, why := locate.Check(&ax.Snapshot{}, r.Node, r.Ancestors, res.Intent); !ok {
			b.Fatal(why)
		}
		if err := p.Click(ctx, r.Ref, ActOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRodClickBySelector: the same click written by hand with go-rod
// and a fixed selector, the baseline for BenchmarkReplayStep.
func BenchmarkRodClickBySelector(b *testing.B) {
	// Plain rod, as a hand-written test would use it: its own page.
	rp, err := shared.rod.Context(context.Background()).Page(proto.TargetCreateTarget{URL: fixtureURL(b) + "/product"})
	if err != nil {
		b.Fatal(err)
	}
	defer rp.Close()
	if err := rp.Timeout(10 * time.Second).WaitLoad(); err != nil {
		b.Fatal(err)
	}
	rp = rp.Timeout(10 * time.Second)
	b.ResetTimer()
	for b.Loop() {
		el, err := rp.Element(`[data-testid="add-to-cart"]`)
		if err != nil {
			b.Fatal(err)
		}
		if err := el.Click(proto.InputMouseButtonLeft, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCacheResolve2kRows: selector voting plus the intent check for
// "the Delete button in the Item 1500 row" on the 2,000-row page.
func BenchmarkCacheResolve2kRows(b *testing.B) {
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
	sels, _, err := p.CaptureElement(ctx, res.Target.Node.Ref, nil)
	if err != nil {
		b.Fatal(err)
	}
	var in session.Intent = res.Intent
	b.ResetTimer()
	for b.Loop() {
		r, err := p.ResolveCached(ctx, sels)
		if err != nil || r.Reason != "" {
			b.Fatal(err, r)
		}
		if ok, why := locate.Check(&ax.Snapshot{}, r.Node, r.Ancestors, in); !ok {
			b.Fatal(why)
		}
	}
	b.ReportMetric(float64(len(sels)), "selectors")
}

// BenchmarkReplayStepInEntry: one cached click "in the X item" whose item
// is a role-less entry (the divsoup task list), as the runner replays it:
// the vote, the entry passed with no name, so the intent check reads the
// entries' text in a snapshot (locate.NeedsPage), and the click. Beside
// BenchmarkReplayStep it is what a hit in such an entry costs.
func BenchmarkReplayStepInEntry(b *testing.B) {
	p := benchPage(b, "/zoo/tasks?style=divsoup")
	ctx := context.Background()
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		b.Fatal(err)
	}
	res := locate.Locate(s, "the checkbox in the oat milk item")
	if res.Target == nil {
		b.Fatal(res.Detail)
	}
	sels, _, err := p.CaptureElement(ctx, res.Target.Node.Ref, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		r, err := p.ResolveCached(ctx, sels)
		if err != nil || r.Reason != "" {
			b.Fatal(err, r)
		}
		snap, node := &ax.Snapshot{}, r.Node
		if locate.NeedsPage(r.Ancestors, res.Intent) {
			if snap, err = p.Snapshot(ctx, SnapshotOptions{}); err != nil {
				b.Fatal(err)
			}
			if n := snap.Find(r.Ref); n != nil {
				node = n
			}
		}
		if ok, why := locate.Check(snap, node, r.Ancestors, res.Intent); !ok {
			b.Fatal(why)
		}
		if err := p.Click(ctx, r.Ref, ActOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplayStepInRow is BenchmarkReplayStep for a step that names
// its row ("the Menu button in the Alice row" on /users), as the runner
// replays it: the vote, the row's name and first cell with the ancestors,
// the intent check on them (no snapshot: the first cell reads the name
// exactly), and the click.
func BenchmarkReplayStepInRow(b *testing.B) {
	p := benchPage(b, "/users")
	ctx := context.Background()
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		b.Fatal(err)
	}
	res := locate.Locate(s, "the Menu button in the Alice row")
	if res.Target == nil {
		b.Fatal(res.Detail)
	}
	sels, _, err := p.CaptureElement(ctx, res.Target.Node.Ref, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		r, err := p.ResolveCached(ctx, sels)
		if err != nil || r.Reason != "" {
			b.Fatal(err, r)
		}
		snap, node := &ax.Snapshot{}, r.Node
		if locate.NeedsPage(r.Ancestors, res.Intent) {
			if snap, err = p.Snapshot(ctx, SnapshotOptions{}); err != nil {
				b.Fatal(err)
			}
			if n := snap.Find(r.Ref); n != nil {
				node = n
			}
		}
		if ok, why := locate.Check(snap, node, r.Ancestors, res.Intent); !ok {
			b.Fatal(why)
		}
		if err := p.Click(ctx, r.Ref, ActOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
