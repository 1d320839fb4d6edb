package browser

import (
	"context"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

func benchPage(b *testing.B, path string) *Page {
	b.Helper()
	p := newPage(b)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := p.Navigate(ctx, fixtureURL(b)+path); err != nil {
		b.Fatal(err)
	}
	if _, err := p.Settle(ctx, SettleOptions{}); err != nil {
		b.Fatal(err)
	}
	return p
}

func benchSnapshot(b *testing.B, path string, opts ...SnapshotOptions) {
	p := benchPage(b, path)
	var o SnapshotOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	ctx := context.Background()
	nodes := 0
	b.ResetTimer()
	for b.Loop() {
		s, err := p.Snapshot(ctx, o)
		if err != nil {
			b.Fatal(err)
		}
		nodes = s.Total
	}
	b.ReportMetric(float64(nodes), "nodes")
}

// BenchmarkSnapshotSmall: the fixture login page.
func BenchmarkSnapshotSmall(b *testing.B) { benchSnapshot(b, "/login") }

// BenchmarkSnapshot2kRows: a 2,000-row table with a button per row, whole
// (no cap), so that it compares with Chrome's full tree below. The page is
// walked in full every time; what crosses to Go is what changed since the
// last snapshot (here nothing), as in an agent's loop.
func BenchmarkSnapshot2kRows(b *testing.B) { benchSnapshot(b, "/rows?n=2000") }

// BenchmarkSnapshot2kRowsFull: the same, but the whole snapshot is sent each
// time (as for the first snapshot of a page), not only what changed since
// the last one.
func BenchmarkSnapshot2kRowsFull(b *testing.B) {
	benchSnapshot(b, "/rows?n=2000", SnapshotOptions{full: true})
}

// BenchmarkSnapshot2kRowsFullUncompressed: whole and without gzip.
func BenchmarkSnapshot2kRowsFullUncompressed(b *testing.B) {
	benchSnapshot(b, "/rows?n=2000", SnapshotOptions{full: true, raw: true})
}

// BenchmarkCDPAXTree2kRows: Chrome's own accessibility tree of the same page
// over CDP (Accessibility.getFullAXTree), the baseline.
func BenchmarkCDPAXTree2kRows(b *testing.B) {
	p := benchPage(b, "/rows?n=2000")
	rp := p.rod.Context(context.Background())
	nodes := 0
	// Enable once outside the loop, as a long-lived session would.
	if err := (proto.AccessibilityEnable{}).Call(rp); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		res, err := proto.AccessibilityGetFullAXTree{}.Call(rp)
		if err != nil {
			b.Fatal(err)
		}
		nodes = len(res.Nodes)
	}
	b.ReportMetric(float64(nodes), "nodes")
}

// BenchmarkSettleIdlePage: time to declare an already idle page settled
// with the default 300 ms quiet window.
func BenchmarkSettleIdlePage(b *testing.B) {
	p := benchPage(b, "/login")
	ctx := context.Background()
	time.Sleep(400 * time.Millisecond) // the page has been idle longer than the quiet window
	b.ResetTimer()
	for b.Loop() {
		if _, err := p.Settle(ctx, SettleOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScreenshot: a viewport screenshot of the 2,000-row table with
// nothing masked, the baseline for BenchmarkScreenshotMasked2kRows.
func BenchmarkScreenshot(b *testing.B) { benchScreenshot(b, nil) }

// BenchmarkScreenshotMasked2kRows: the same with a secret that the table
// shows once: the page is searched for it before and after the capture,
// and the PNG is decoded, masked and encoded again.
func BenchmarkScreenshotMasked2kRows(b *testing.B) { benchScreenshot(b, []string{"SKU-00007"}) }

func benchScreenshot(b *testing.B, secrets []string) {
	p := benchPage(b, "/rows?n=2000")
	p.MaskSecrets(secrets)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := p.Screenshot(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
