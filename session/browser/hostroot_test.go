package browser

import (
	"testing"

	"github.com/e2e-dev/e2e/session"
)

// shadowDeleteHTML is a page with a Delete button in the light DOM (a
// toolbar) and another in a component's open shadow root (an item), with no
// id, test id or label on either: the cache knows the shadow one by its
// text, its structural path from the shadow root's top level, and its host.
const shadowDeleteHTML = `<!doctype html><body>
<div class="toolbar"><button data-k="light">Delete</button></div>
<todo-item></todo-item>
<script>
const r = document.querySelector('todo-item').attachShadow({mode: 'open'});
r.innerHTML = '<div><span>eggs</span><button data-k="shadow">Delete</button></div>';
</script></body>`

// shadowGoneHTML is shadowDeleteHTML after the item lost its Delete
// button: the component is still there, the toolbar's Delete button too.
const shadowGoneHTML = `<!doctype html><body>
<div class="toolbar"><button data-k="light">Delete</button></div>
<todo-item></todo-item>
<script>
const r = document.querySelector('todo-item').attachShadow({mode: 'open'});
r.innerHTML = '<div><span>eggs</span></div>';
</script></body>`

// lightOnlyHTML is the same list in light markup (as another style of a zoo
// page renders it): no shadow root, a first div whose first button is an
// Archive button, and no Delete button at all.
const lightOnlyHTML = `<!doctype html><body>
<div class="toolbar"><button data-k="archive">Archive</button></div>
<div class="item"><span>eggs</span><button data-k="remove">Remove</button></div>
</body>`

// shadowDeleteSelectors captures the Delete button in the shadow root of
// shadowDeleteHTML, as a recording does.
func shadowDeleteSelectors(t *testing.T, p *Page) []session.Selector {
	t.Helper()
	return captureKeyed(t, p, "button", "Delete", "shadow", "host")
}

// TestResolveCachedInTheRecordedRoot: a cached element recorded in a shadow
// root is looked for in that root while its host is there. A look-alike in
// the document that the same selectors find (the toolbar's Delete button:
// the same text, and a first button in a first div) is not the element.
// Before, the document was read first and its look-alike won the vote on
// the unchanged page.
func TestResolveCachedInTheRecordedRoot(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, shadowDeleteHTML))
	sels := shadowDeleteSelectors(t, p)
	r, err := p.ResolveCached(ctxT(t), sels)
	if err != nil {
		t.Fatal(err)
	}
	if r.Reason != "" {
		t.Fatalf("resolved: %s (%v)", r.Reason, sels)
	}
	if k, _, err := p.Attribute(ctxT(t), r.Ref, "data-k"); err != nil || k != "shadow" {
		t.Errorf("resolved to the button keyed %q (%v), want the one in the shadow root (selectors %v)", k, err, sels)
	}
}

// TestResolveCachedStructuralPathStaysInItsRoot: a structural path recorded
// in a shadow root starts at the root's top level; in a document, which has
// no such level, it names nothing. Replayed on the same list in light
// markup (the recorded host gone), the path alone must not elect the
// document's first button in a first div (Archive): the entry misses.
// Before, the path was read in the document unanchored and Archive won.
func TestResolveCachedStructuralPathStaysInItsRoot(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, shadowDeleteHTML))
	sels := shadowDeleteSelectors(t, p)
	open(t, p, serveHTML(t, lightOnlyHTML))
	r, err := p.ResolveCached(ctxT(t), sels)
	if err != nil {
		t.Fatal(err)
	}
	if r.Reason == "" {
		k, _, _ := p.Attribute(ctxT(t), r.Ref, "data-k")
		t.Errorf("resolved to the button keyed %q (%s), want no-match (selectors %v)", k, r.Node.Line(), sels)
	} else if r.Reason != "no-match" {
		t.Errorf("reason %q, want no-match", r.Reason)
	}
}

// TestResolveCachedHostRootOnly: while the recorded shadow root is there it
// is the only root read: the item's Delete button gone from it, the
// toolbar's Delete button in the document (the same text) is not the
// element, and the entry misses. Before, the document was read too and
// the toolbar's button won.
func TestResolveCachedHostRootOnly(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, shadowDeleteHTML))
	sels := shadowDeleteSelectors(t, p)
	open(t, p, serveHTML(t, shadowGoneHTML))
	r, err := p.ResolveCached(ctxT(t), sels)
	if err != nil {
		t.Fatal(err)
	}
	if r.Reason != "no-match" {
		k, _, _ := p.Attribute(ctxT(t), r.Ref, "data-k")
		t.Errorf("resolved %q to the button keyed %q, want no-match (selectors %v)", r.Reason, k, sels)
	}
}
