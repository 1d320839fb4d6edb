package browser

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/ax"
)

// refOf is the ref of the first node of role whose name or hint contains
// what.
func refOf(t *testing.T, p *Page, role, hint string) string {
	t.Helper()
	var ref string
	snap(t, p, SnapshotOptions{}).Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if ref == "" && n.Role == role && (hint == "" || strings.HasPrefix(n.States.Hint, hint) || n.Name == hint) {
			ref = n.Ref
		}
		return ref == ""
	})
	if ref == "" {
		t.Fatalf("no %s %q in the snapshot:\n%s", role, hint, snap(t, p, SnapshotOptions{}).Text(ax.TextOptions{}))
	}
	return ref
}

// A checkbox drawn by its label, as TodoMVC's "toggle all" ships: the
// input is a pixel wide and transparent, its label's for names no element,
// and the app listens to clicks on the label (issue 29, class 2). check
// acts where a person acts, on the label, and reports success only when the
// page reacted; a page that ignores the label too fails the step.
const drawnToggle = `<!doctype html><style>
.wrap { position: relative; margin: 80px } .all { width: 1px; height: 1px; opacity: 0; border: none; position: absolute; right: 100%; bottom: 100% }
.all + label { display: block; width: 45px; height: 45px; font-size: 0 } .all + label::before { content: '❯'; font-size: 22px }
</style><div class="wrap"><input class="all" type="checkbox"><label for="toggle-all">Mark all as complete</label></div>
<p id="out">0 done</p><script>
const input = document.querySelector('.all');
document.querySelector('label').addEventListener('click', () => {
  if (location.hash === '#deaf') return;
  input.click();
  document.getElementById('out').textContent = (input.checked ? 2 : 0) + ' done';
});
</script>`

func TestCheckActsOnTheLabelThatDrawsIt(t *testing.T) {
	p := newPage(t)
	url := serveHTML(t, drawnToggle)
	open(t, p, url)
	ref := refOf(t, p, "checkbox", "")
	if err := p.SetChecked(ctxT(t), ref, true, ActOptions{}); err != nil {
		t.Fatalf("check: %v", err)
	}
	var out string
	must(t, p.Eval(ctxT(t), &out, `() => document.getElementById('out').textContent`))
	if out != "2 done" {
		t.Fatalf("the page says %q after the check, want %q: the check went to the input the app ignores", out, "2 done")
	}
	if err := p.Click(ctxT(t), ref, ActOptions{}); err != nil {
		t.Fatalf("click: %v", err)
	}
	must(t, p.Eval(ctxT(t), &out, `() => document.getElementById('out').textContent`))
	if out != "0 done" {
		t.Fatalf("the page says %q after the click, want %q", out, "0 done")
	}

	// The same page deaf to its label: the step fails, never a success.
	open(t, p, url+"#deaf")
	ref = refOf(t, p, "checkbox", "")
	err := p.SetChecked(ctxT(t), ref, true, ActOptions{})
	var ae *ActionError
	if !errors.As(err, &ae) || ae.Reason != ReasonIgnored {
		t.Fatalf("check on a page that ignores it: %v, want %q", err, ReasonIgnored)
	}
	err = p.Click(ctxT(t), ref, ActOptions{})
	if !errors.As(err, &ae) || ae.Reason != ReasonIgnored {
		t.Fatalf("click on a page that ignores it: %v, want %q", err, ReasonIgnored)
	}
}

// A checkbox a person sees and clicks itself (a transparent input laid
// over the circle its label draws, as TodoMVC's item toggles) is clicked
// where it is: its own centre takes the click.
func TestTransparentCheckboxOnTopIsClickedItself(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, `<!doctype html><style>li { position: relative; list-style: none; height: 40px }
.toggle { opacity: 0; position: absolute; left: 0; top: 0; width: 40px; height: 40px; margin: 0 }
label { display: block; padding-left: 60px; line-height: 40px }</style>
<ul><li><input class="toggle" type="checkbox"><label>buy milk</label></li></ul><p id="out"></p>
<script>document.querySelector('.toggle').addEventListener('change', (e) => { document.getElementById('out').textContent = 'changed ' + e.target.checked; });</script>`))
	ref := refOf(t, p, "checkbox", "")
	if err := p.SetChecked(ctxT(t), ref, true, ActOptions{}); err != nil {
		t.Fatalf("check: %v", err)
	}
	var out string
	must(t, p.Eval(ctxT(t), &out, `() => document.getElementById('out').textContent`))
	if out != "changed true" {
		t.Fatalf("the page says %q", out)
	}
}

// Items that share a test id (data-testid="todo-item" on every <li>) do
// not anchor a structural path: the captured path still finds the one
// element, and replays to it.
func TestStructuralPathThroughSharedTestIDs(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, `<!doctype html><ul>
<li data-testid="todo-item"><div class="view"><input data-testid="todo-item-toggle" type="checkbox"><label>buy milk</label></div></li>
<li data-testid="todo-item"><div class="view"><input data-testid="todo-item-toggle" type="checkbox"><label>buy bread</label></div></li></ul>`))
	ref := refOf(t, p, "checkbox", "buy bread")
	sels, _, err := p.CaptureElement(ctxT(t), ref, nil)
	must(t, err)
	if len(sels) == 0 {
		t.Fatal("no selector finds the second item's checkbox alone")
	}
	r, err := p.ResolveCached(ctxT(t), sels)
	must(t, err)
	if r.Reason != "" || r.Ref != ref {
		t.Fatalf("resolved %+v, want %s", r, ref)
	}
}

// A focusable role-less element (a <span tabindex=0> that shows a todo's
// text, as TodoMVC's web-components build draws it) is a named generic
// clickable in the snapshot; the cache describes it the same way on replay,
// so a step recorded on it replays as a hit.
func TestCachedFocusableSpanIsTheClickableTheSnapshotHas(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, `<!doctype html><ul><li><input type="checkbox" aria-label="Toggle"><span class="text" tabindex="0">buy milk</span></li>
<li><input type="checkbox" aria-label="Toggle"><span class="text" tabindex="0">buy bread</span></li></ul>`))
	ref := refOf(t, p, "generic", "buy milk")
	sels, node, err := p.CaptureElement(ctxT(t), ref, nil)
	must(t, err)
	r, err := p.ResolveCached(ctxT(t), sels)
	must(t, err)
	if r.Ref != ref || r.Node.Role != node.Role || r.Node.Name != "buy milk" || !r.Node.States.Clickable {
		t.Fatalf("captured %s %q, replayed as %s (ref %s, want %s)", node.Role, node.Name, r.Node.Line(), r.Ref, ref)
	}
}

// TodoMVC's toggle all as its angular and preact builds ship it: a
// see-through input of its own size laid over the chevron its label
// draws; the label's for names no id and it takes no pointer events, so
// the click a person gives the chevron reaches the input. The input is
// acted on itself. The near miss: the same see-through input beside a
// label that lies elsewhere is hidden to a person, and refused.
func TestSeeThroughInputOverItsLabelsDrawing(t *testing.T) {
	page := func(labelAt string) string {
		return `<!doctype html><style>
.c { position: relative; margin: 100px 40px; height: 10px }
.all { width: 40px; height: 60px; opacity: 0; border: none; position: absolute; bottom: 100%; margin: 0 }
.all + label { display: flex; width: 45px; height: 65px; font-size: 0; position: absolute; left: 0; pointer-events: none; ` + labelAt + ` }
.all + label::before { content: '❯'; font-size: 22px; padding: 10px 27px }
</style><div class="c"><input class="all" type="checkbox"><label for="toggle-all">Toggle All Input</label></div>
<p id="out">none</p><script>
document.querySelector('.all').addEventListener('change', (e) => { document.getElementById('out').textContent = 'all ' + e.target.checked; });
</script>`
	}
	p := newPage(t)
	open(t, p, serveHTML(t, page("top: -65px")))
	ref := refOf(t, p, "checkbox", "")
	if err := p.SetChecked(ctxT(t), ref, true, ActOptions{}); err != nil {
		t.Fatalf("check: %v", err)
	}
	var out string
	must(t, p.Eval(ctxT(t), &out, `() => document.getElementById('out').textContent`))
	if out != "all true" {
		t.Fatalf("the page says %q after the check", out)
	}

	open(t, p, serveHTML(t, page("top: 200px")))
	ref = refOf(t, p, "checkbox", "")
	err := p.SetChecked(ctxT(t), ref, true, ActOptions{Timeout: 500 * time.Millisecond})
	var ae *ActionError
	if !errors.As(err, &ae) || ae.Reason != ReasonHidden {
		t.Fatalf("check of a see-through input its label does not draw over: %v, want %q", err, ReasonHidden)
	}
}
