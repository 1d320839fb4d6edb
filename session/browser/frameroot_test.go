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

// frameStatusSelectors captures the status in the frame, as a recording does.
func frameStatusSelectors(t *testing.T, p *Page) []session.Selector {
	t.Helper()
	var ref string
	snapshotT(t, p).Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "status" && ref == "" {
			ref = n.Ref
		}
		return true
	})
	if ref == "" {
		t.Fatal("no status in the snapshot")
	}
	sels, _, err := p.CaptureElement(ctxT(t), ref, nil)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, s := range sels {
		kinds = append(kinds, s.Kind)
	}
	if got := strings.Join(kinds, ","); !strings.Contains(got, "structural") || !strings.Contains(got, "frame") {
		t.Fatalf("selectors %v: want a structural path and a frame", sels)
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
	sels := frameStatusSelectors(t, p)
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
