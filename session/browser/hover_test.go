package browser

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/fixture"
)

// hoverOnly lists the hover-only nodes of s in document order.
func hoverOnly(s *ax.Snapshot) []*ax.Node {
	var out []*ax.Node
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.States.HoverOnly {
			out = append(out, n)
		}
		return true
	})
	return out
}

// TestHoverOnlyDeleteOnZooTasks: on every style of /zoo/tasks the four
// delete buttons, display:none until their row is hovered, are in the
// snapshot as hover-only; clicking the third (bread's) hovers its row,
// clicks, says what it hovered, and bread is the item that disappears.
func TestHoverOnlyDeleteOnZooTasks(t *testing.T) {
	base := fixtureURL(t)
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+"/zoo/tasks?style="+style)
			d := zooDriver{t, p}
			d.move(1, 1) // away from every row
			s, err := p.Snapshot(ctxT(t), SnapshotOptions{})
			if err != nil {
				t.Fatal(err)
			}
			hv := hoverOnly(s)
			if len(hv) != 4 {
				t.Fatalf("%d hover-only nodes, want the 4 delete buttons:\n%s", len(hv), s.Text(ax.TextOptions{}))
			}
			for _, n := range hv {
				if n.Role != "button" || !n.States.Interactive || n.Ref == "" {
					t.Errorf("hover-only node %s, want an interactable button", n.Line())
				}
			}
			var revealed []string
			err = p.Click(ctxT(t), hv[2].Ref, ActOptions{Timeout: 3 * time.Second, Revealed: func(w string) { revealed = append(revealed, w) }})
			if err != nil {
				t.Fatal(err)
			}
			if len(revealed) != 1 || !strings.HasPrefix(revealed[0], "the bread ") {
				t.Errorf("Revealed was told %q, want once the bread item", revealed)
			}
			d.wantScreen("bread deleted", zooTasksScreen([]string{"oat milk", "oat milk and honey", "eggs"}, 3)...)
		})
	}
}

const hoverPage = `<!doctype html><title>hover</title>
<style>
  .row .x { display: none }
  .row:hover .x { display: inline-block }
  .y { display: none }
  .other:hover .y { display: inline-block }
  .plain { display: none }
  .card .edit { visibility: hidden }
  @media screen { .card:hover .edit { visibility: visible } }
  .line .acts { display: none }
  .line:hover .acts, .never:hover .acts { display: flex }
  .row .forced { display: none !important }
  li, div.card, div.line { height: 40px }
</style>
<ul>
  <li class="row">bread <button class="x">Remove</button></li>
  <li class="row">eggs <button class="x" hidden>Hidden attribute</button></li>
  <li class="other">oats</li>
  <li>milk <button class="y">Other container</button></li>
  <li>tea <button class="plain">No rule</button></li>
  <li class="row">salt <button class="x forced">Forced</button></li>
  <li><button id="shown">Shown</button></li>
</ul>
<div class="card">jam <button class="edit">Edit jam</button></div>
<div class="line">rice <span class="acts"><button>Rename</button><button>Drop</button></span></div>
<table><tr class="row"><td>corn</td><td><button class="x">Delete corn</button></td></tr></table>
<div id="host"></div>
<div id="host2"></div>
<script>
  const sr = document.getElementById('host').attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync('.r .z { display: none } .r:hover .z { display: block } .r { height: 40px }');
  sr.adoptedStyleSheets = [sheet];
  sr.innerHTML = '<div class="r">kiwi <button class="z">Zap</button></div>';
  const sr2 = document.getElementById('host2').attachShadow({ mode: 'open' });
  sr2.innerHTML = '<style>:host { display: block; height: 40px } .k { display: none } :host(:hover) .k { display: block }</style>lime <button class="k">Keep</button>';
  let clicks = [];
  document.addEventListener('click', (e) => clicks.push(e.composedPath()[0].textContent), true);
</script>`

// TestHoverOnlyNearMisses: only a :hover rule whose hovered part is an
// ancestor of the control (or the shadow host, or a sibling) makes it
// hover-only; hidden by an attribute, by a rule without :hover or by a
// :hover rule on another container, it stays out of the snapshot. A
// wrapper revealed by hover brings its controls; visibility works as
// display does; rules in @media, adopted sheets and shadow styles count;
// and a hover-only control never adds to its container's name.
func TestHoverOnlyNearMisses(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, hoverPage))
	zooDriver{t, p}.move(1, 500)
	s, err := p.Snapshot(ctxT(t), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range hoverOnly(s) {
		got = append(got, n.Name)
	}
	want := []string{"Remove", "Forced", "Edit jam", "Rename", "Drop", "Delete corn", "Zap", "Keep"}
	if !slices.Equal(got, want) {
		t.Errorf("hover-only: %q, want %q\n%s", got, want, s.Text(ax.TextOptions{}))
	}
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		switch {
		case n.Name == "Hidden attribute" || n.Name == "Other container" || n.Name == "No rule":
			t.Errorf("%s is in the snapshot", n.Line())
		case n.Name == "Shown" && n.States.HoverOnly:
			t.Errorf("%s is hover-only", n.Line())
		case n.Role == "row" && n.Name != "corn":
			t.Errorf("the row is named %q, want %q (the hidden button adds nothing)", n.Name, "corn")
		case n.Role == "text" && strings.Contains(n.Text, "Delete corn"):
			t.Errorf("the hidden button's text is in the snapshot as %q", n.Text)
		}
		return true
	})
	if t.Failed() {
		t.Log(s.Text(ax.TextOptions{}))
	}
}

// TestHoverOnlyActions: an action on each kind of hover-only control
// hovers its container and acts; one that a hover does not show after all
// (display:none !important) fails as hidden with the reason; and one
// hidden with no :hover rule fails as hidden at once, with no hover.
func TestHoverOnlyActions(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, hoverPage))
	d := zooDriver{t, p}
	d.move(1, 500)
	s, err := p.Snapshot(ctxT(t), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	refs := map[string]string{}
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Ref != "" {
			refs[n.Name] = n.Ref
		}
		return true
	})
	for _, c := range []struct{ name, over string }{
		{"Remove", "the bread item"}, {"Edit jam", "the jam container"}, {"Drop", "the rice container"},
		{"Delete corn", "the corn row"}, {"Zap", "the kiwi container"}, {"Keep", "the lime container"},
	} {
		d.move(1, 500)
		var revealed []string
		err := p.Click(ctxT(t), refs[c.name], ActOptions{Timeout: 3 * time.Second, Revealed: func(w string) { revealed = append(revealed, w) }})
		if err != nil {
			t.Errorf("click %s: %v", c.name, err)
			continue
		}
		if !slices.Equal(revealed, []string{c.over}) {
			t.Errorf("click %s: revealed %q, want %q", c.name, revealed, c.over)
		}
		var last string
		if err := p.Eval(ctxT(t), &last, `() => clicks[clicks.length - 1]`); err != nil {
			t.Fatal(err)
		}
		if last != c.name {
			t.Errorf("click %s: the page saw a click on %q", c.name, last)
		}
	}

	d.move(1, 500)
	var revealed []string
	err = p.Click(ctxT(t), refs["Forced"], ActOptions{Timeout: 300 * time.Millisecond, Revealed: func(w string) { revealed = append(revealed, w) }})
	var ae *ActionError
	if !errors.As(err, &ae) || ae.Reason != ReasonHidden || !strings.Contains(ae.Detail, "display: none") || !strings.Contains(ae.Detail, "hovering the salt item did not show it") {
		t.Errorf("click Forced: %v, want hidden: display: none, after hovering the salt item", err)
	}
	if len(revealed) != 0 {
		t.Errorf("click Forced: Revealed was told %q", revealed)
	}

	if err := p.Eval(ctxT(t), nil, `() => { document.getElementById('shown').style.display = 'none'; }`); err != nil {
		t.Fatal(err)
	}
	err = p.Click(ctxT(t), refs["Shown"], ActOptions{Timeout: 300 * time.Millisecond, Revealed: func(w string) { revealed = append(revealed, w) }})
	if !errors.As(err, &ae) || ae.Reason != ReasonHidden || ae.Detail != "the element has display: none" {
		t.Errorf("click Shown (now display:none, no :hover rule): %v, want hidden: the element has display: none", err)
	}
	if len(revealed) != 0 {
		t.Errorf("click Shown: Revealed was told %q", revealed)
	}
}

// TestHoverOnlyResolveCached: cached selectors of a hover-only control
// resolve to it as not visible but hover-only; a control hidden with no
// :hover rule resolves as not visible and not hover-only.
func TestHoverOnlyResolveCached(t *testing.T) {
	p := newPage(t)
	u := serveHTML(t, hoverPage)
	open(t, p, u)
	zooDriver{t, p}.move(1, 500)
	s, err := p.Snapshot(ctxT(t), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	capture := func(name string) []session.Selector {
		t.Helper()
		var ref string
		s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
			if n.Name == name {
				ref = n.Ref
			}
			return ref == ""
		})
		sels, _, err := p.CaptureElement(ctxT(t), ref, nil)
		if err != nil || len(sels) == 0 {
			t.Fatalf("capture %s: %v %v", name, sels, err)
		}
		return sels
	}
	remove, shown := capture("Remove"), capture("Shown")
	open(t, p, u)
	res, err := p.ResolveCached(ctxT(t), remove)
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason != "" || res.Visible || !res.HoverOnly || res.Node.Name != "Remove" || !res.Node.States.HoverOnly {
		t.Errorf("Remove resolved as %+v %+v, want not visible, hover-only", res, res.Node)
	}
	if err := p.Eval(ctxT(t), nil, `() => { document.getElementById('shown').style.display = 'none'; }`); err != nil {
		t.Fatal(err)
	}
	res, err = p.ResolveCached(ctxT(t), shown)
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason != "" || res.Visible || res.HoverOnly {
		t.Errorf("Shown (display:none, no :hover rule) resolved as %+v, want not visible, not hover-only", res)
	}
}
