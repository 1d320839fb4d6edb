package browser

import (
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
)

// clickablePage holds role-less elements a person would click and ones
// that only look alike. Every element the test asks about carries an id;
// the snapshot never reads ids as evidence of clickability.
const clickablePage = `<!doctype html><html><head><style>
body { font: 16px system-ui; cursor: default }
.btn { display: inline-block; padding: 4px 8px; cursor: pointer }
.row { display: flex; align-items: center; height: 40px; cursor: pointer }
.box { width: 18px; height: 18px; border: 2px solid #333; box-sizing: border-box }
.pill { position: relative; width: 36px; height: 20px; border-radius: 10px; background: #999 }
.knob { position: absolute; top: 2px; left: 2px; width: 16px; height: 16px; border-radius: 8px; background: #fff }
.dot { width: 18px; height: 18px; border-radius: 9px; border: 2px solid #333; box-sizing: border-box }
.wrap { cursor: pointer }
.plainbox { width: 18px; height: 18px; border: 2px solid #333; box-sizing: border-box }
</style></head><body>
<div class="btn" id="save">Save <span id="inner">now</span></div>
<span id="text">Just text</span>
<div class="row" id="row"><div class="box" id="box"></div><span>Weekly digest</span></div>
<div class="row" id="row2"><div class="pill" id="pill"><div class="knob"></div></div><span>Dark mode</span></div>
<div class="row" id="row3"><div class="dot" id="dot"></div><span>Round</span></div>
<div class="plainbox" id="plainbox"></div>
<span class="wrap" id="wrap"><button id="real">Real</button></span>
<label class="btn" id="lab"><input type="checkbox" id="cb"> Tied</label>
<div id="prop">By property</div>
<button class="btn" id="b2"><span class="box" id="inbutton"></span></button>
<script>document.getElementById('prop').onclick = () => {};</script>
</body></html>`

// TestSnapshotRoleLessClickables: a pointer cursor at the top of its chain
// and an onclick property make a role-less element a clickable generic
// with a ref and no name, its text below it; elements inside it that only
// inherit the cursor are not, except a box or a pill drawn as a control;
// a wrapper around a real control, a label, plain text, a round dot and
// a box outside any clickable are not clickables.
func TestSnapshotRoleLessClickables(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, clickablePage))
	s := snapshotT(t, p)
	var ids []string
	byID := map[string]*ax.Node{}
	for _, n := range s.Interactable() {
		var id string
		if err := p.Eval(ctxT(t), &id, `(r) => window.__e2e.resolve(r).id`, n.Ref); err != nil {
			t.Fatal(err)
		}
		if n.States.Clickable {
			ids = append(ids, id)
			byID[id] = n
		}
	}
	want := []string{"save", "row", "box", "row2", "pill", "row3", "prop"}
	if strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Fatalf("clickables %v, want %v\n%s", ids, want, s.Text(ax.TextOptions{}))
	}
	for _, id := range want {
		n := byID[id]
		if n.Role != "generic" || n.Name != "" {
			t.Errorf("%s: %s %q, want generic with no name", id, n.Role, n.Name)
		}
	}
	if l := byID["box"].States.Looks; l != "checkbox" {
		t.Errorf("box looks %q, want checkbox", l)
	}
	if l := byID["pill"].States.Looks; l != "switch" {
		t.Errorf("pill looks %q, want switch", l)
	}
	for _, id := range []string{"save", "row", "row2", "row3", "prop"} {
		if l := byID[id].States.Looks; l != "" {
			t.Errorf("%s looks %q, want none", id, l)
		}
	}
	if h := byID["box"].States.Hint; !strings.Contains(h, "Weekly digest") {
		t.Errorf("box hint %q, want the text beside it", h)
	}
	if h := byID["save"].States.Hint; h != "" {
		t.Errorf("save hint %q: a clickable with words is known by them", h)
	}
	if k := byID["save"].Children; len(k) != 1 || k[0].Role != "text" || k[0].Text != "Save now" || k[0].Ref != byID["save"].Ref {
		t.Errorf("save's children %+v, want its text run under its ref", k)
	}
	out := s.Text(ax.TextOptions{})
	if !strings.Contains(out, "generic [clickable] [ref="+byID["save"].Ref+"]: Save now") ||
		!strings.Contains(out, "[clickable] [looks=checkbox]") {
		t.Errorf("outline lacks the clickable lines:\n%s", out)
	}
}

// TestResolveCachedRoleLessClickable: the element cache describes a
// clickable as the snapshot does (role generic, clickable, looks), so a
// step located on one replays.
func TestResolveCachedRoleLessClickable(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, clickablePage))
	s := snapshotT(t, p)
	for _, id := range []string{"save", "box", "pill"} {
		var want *ax.Node
		for _, n := range s.Interactable() {
			var got string
			if err := p.Eval(ctxT(t), &got, `(r) => window.__e2e.resolve(r).id`, n.Ref); err != nil {
				t.Fatal(err)
			}
			if got == id {
				want = n
			}
		}
		if want == nil {
			t.Fatalf("%s: not in the snapshot", id)
		}
		sels, node, err := p.CaptureElement(ctxT(t), want.Ref, nil)
		if err != nil {
			t.Fatal(err)
		}
		if node.Role != "generic" {
			t.Errorf("%s: captured role %q, want generic", id, node.Role)
		}
		res, err := p.ResolveCached(ctxT(t), sels)
		if err != nil {
			t.Fatal(err)
		}
		if res.Node == nil {
			t.Fatalf("%s: not resolved: %+v", id, res)
		}
		n := res.Node
		if n.Role != "generic" || !n.States.Clickable || n.States.Looks != want.States.Looks || n.States.Hint != want.States.Hint || n.Ref != want.Ref {
			t.Errorf("%s: resolved %s, want %s", id, n.Line(), want.Line())
		}
	}
}
