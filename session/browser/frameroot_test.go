package browser

import (
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
)

// frameStatusHTML is a page whose main holds a paragraph first, and a frame
// whose main holds a status first, with no id, test id or label on either:
// the structural path of the frame's status (body > main > p) names the
// page's paragraph too.
const frameStatusHTML = `<!doctype html><body><main>
<p data-k="page">Welcome</p>
<iframe title="Form" srcdoc="<body><main><p role='status' data-k='frame'>Saved</p><button>Save</button></main></body>"></iframe>
</main></body>`

// captureKeyed captures, as a recording does, the element of the role and
// name whose data-k is key ("" for the first of them), and checks that its
// selectors hold a structural path and a selector of the kind root (frame
// or host) that says which root they are read in.
func captureKeyed(t *testing.T, p *Page, role, name, key, root string) []session.Selector {
	t.Helper()
	var ref string
	snapshotT(t, p).Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == role && n.Name == name && ref == "" {
			if k, _, err := p.Attribute(ctxT(t), n.Ref, "data-k"); err == nil && (key == "" || k == key) {
				ref = n.Ref
			}
		}
		return true
	})
	if ref == "" {
		t.Fatalf("no %s %q keyed %q in the snapshot", role, name, key)
	}
	sels, _, err := p.CaptureElement(ctxT(t), ref, nil)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, s := range sels {
		kinds = append(kinds, s.Kind)
	}
	if got := strings.Join(kinds, ","); !strings.Contains(got, "structural") || !strings.Contains(got, root) {
		t.Fatalf("selectors %v: want a structural path and a %s", sels, root)
	}
	return sels
}

// TestResolveCachedInTheRecordedFrame: a cached element recorded in a frame
// is looked for in that frame's document while the frame is there: the
// unchanged page is a hit on the frame's status, not a vote the page's
// paragraph wins by its structural path (before, the page was read first,
// the paragraph won, and the check turned the unchanged page into a miss).
func TestResolveCachedInTheRecordedFrame(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, frameStatusHTML))
	sels := captureKeyed(t, p, "status", "", "", "frame")
	r, err := p.ResolveCached(ctxT(t), sels)
	if err != nil {
		t.Fatal(err)
	}
	if r.Reason != "" {
		t.Fatalf("resolved: %s (%v)", r.Reason, sels)
	}
	if k, _, err := p.Attribute(ctxT(t), r.Ref, "data-k"); err != nil || k != "frame" || r.Node.Role != "status" {
		t.Errorf("resolved to %s keyed %q (%v), want the frame's status (selectors %v)", r.Node.Line(), k, err, sels)
	}

}

// twoFramesHTML holds two frames with the same content, a Pay button each,
// told apart only by their titles.
const twoFramesHTML = `<!doctype html><body><main>
<iframe title="Payment" srcdoc="<button data-k='payment'>Pay</button>"></iframe>
<iframe title="Billing" srcdoc="<button data-k='billing'>Pay</button>"></iframe>
</main></body>`

// TestResolveCachedFrameByItsTitle: the frame of a cached element is named
// by its title, not its place: with the frames swapped, or a look-alike
// frame inserted before them, the Billing frame's Pay button is still the
// Billing one, never the Pay button of the frame now in its place (the
// same role and name: the check could not tell them apart).
func TestResolveCachedFrameByItsTitle(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, twoFramesHTML))
	sels := captureKeyed(t, p, "button", "Pay", "billing", "frame")
	swapped := `<!doctype html><body><main>
<iframe title="Billing" srcdoc="<button data-k='billing'>Pay</button>"></iframe>
<iframe title="Payment" srcdoc="<button data-k='payment'>Pay</button>"></iframe>
</main></body>`
	inserted := strings.Replace(twoFramesHTML, "<main>\n", "<main>\n<iframe title=\"Ads\" srcdoc=\"<button data-k='ads'>Pay</button>\"></iframe>\n", 1)
	for _, page := range []string{swapped, inserted} {
		open(t, p, serveHTML(t, page))
		r, err := p.ResolveCached(ctxT(t), sels)
		if err != nil {
			t.Fatal(err)
		}
		if r.Reason != "" {
			t.Errorf("resolved: %s (%v) on\n%s", r.Reason, sels, page)
			continue
		}
		if k, _, err := p.Attribute(ctxT(t), r.Ref, "data-k"); err != nil || k != "billing" {
			t.Errorf("resolved to the Pay button keyed %q (%v), want the Billing frame's (selectors %v) on\n%s", k, err, sels, page)
		}
	}
}

// TestResolveCachedFrameByPlaceNeverTakesATwin: frames nothing names (no
// title, name, test id, id or src) are known by their place only. Another
// frame holding an element the selectors find as well makes the vote a
// conflict: with the two frames swapped it is a miss, never a hit on the
// other frame's Pay button; so it is on the unchanged page, where the
// locator, not the cache, has to tell the two apart.
func TestResolveCachedFrameByPlaceNeverTakesATwin(t *testing.T) {
	untitled := func(first, second string) string {
		return `<!doctype html><body><main>
<iframe srcdoc="<button data-k='` + first + `'>Pay</button>"></iframe>
<iframe srcdoc="<button data-k='` + second + `'>Pay</button>"></iframe>
</main></body>`
	}
	p := newPage(t)
	open(t, p, serveHTML(t, untitled("payment", "billing")))
	sels := captureKeyed(t, p, "button", "Pay", "billing", "frame")
	for _, page := range []string{untitled("billing", "payment"), untitled("payment", "billing")} {
		open(t, p, serveHTML(t, page))
		r, err := p.ResolveCached(ctxT(t), sels)
		if err != nil {
			t.Fatal(err)
		}
		if r.Reason == "" {
			k, _, _ := p.Attribute(ctxT(t), r.Ref, "data-k")
			t.Errorf("resolved to the Pay button keyed %q, want a miss: its frame is known by its place only (selectors %v)", k, sels)
		}
	}
}

// TestResolveCachedRecordedFrameGoneTwinsConflict: the recorded frame gone
// (renamed), the selectors are looked for in the other roots; two frames
// holding a Pay button the selectors find as well are a conflict, never
// the first of them (here the Billing frame's, another element).
func TestResolveCachedRecordedFrameGoneTwinsConflict(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, twoFramesHTML))
	sels := captureKeyed(t, p, "button", "Pay", "payment", "frame")
	open(t, p, serveHTML(t, `<!doctype html><body><main>
<iframe title="Billing" srcdoc="<button data-k='billing'>Pay</button>"></iframe>
<iframe title="Checkout" srcdoc="<button data-k='payment'>Pay</button>"></iframe>
</main></body>`))
	r, err := p.ResolveCached(ctxT(t), sels)
	if err != nil {
		t.Fatal(err)
	}
	if r.Reason != "selector-conflict" {
		k, _, _ := p.Attribute(ctxT(t), r.Ref, "data-k")
		t.Errorf("reason %q (the Pay button keyed %q), want selector-conflict (selectors %v)", r.Reason, k, sels)
	}
}
