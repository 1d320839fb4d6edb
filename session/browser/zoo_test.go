package browser

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"

	"github.com/e2e-dev/e2e/session/fixture"
)

// The zoo tests drive every style of a zoo page the way a person does:
// they find things by the text on screen and the page's geometry (which all
// styles share), and act with real mouse and keyboard events at screen
// points. They never use the locator, ARIA or class names, so one test
// proves that the styles are behaviourally identical.

// zooJS is a prelude of page helpers that look through open shadow roots.
const zooJS = `
const zoo = document.querySelector('[data-zoo]');
function visible(el) {
  if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false;
  const r = el.getBoundingClientRect();
  return r.width > 1 && r.height > 1;
}
// texts lists the visible text on screen inside the zoo, in tree order.
function texts(node, out) {
  out = out || [];
  for (const c of node.childNodes) {
    if (c.nodeType === 3) {
      const t = c.data.trim();
      if (t && c.parentElement && visible(c.parentElement)) out.push(t.replace(/\s+/g, ' '));
    } else if (c.nodeType === 1 && c.tagName !== 'STYLE' && c.tagName !== 'SCRIPT') {
      if (c.shadowRoot) texts(c.shadowRoot, out);
      texts(c, out);
    }
  }
  return out;
}
function deepAll(node, pred, out) {
  out = out || [];
  for (const el of node.querySelectorAll('*')) {
    if (pred(el)) out.push(el);
    if (el.shadowRoot) deepAll(el.shadowRoot, pred, out);
  }
  return out;
}
// textBox is the box of the one visible element whose own text is t.
function textBox(t) {
  const hits = deepAll(zoo, el => visible(el) && [...el.childNodes].some(c => c.nodeType === 3 && c.data.trim() === t));
  if (hits.length !== 1) return { n: hits.length };
  const r = hits[0].getBoundingClientRect();
  return { n: 1, x: r.left, y: r.top, w: r.width, h: r.height };
}
function fieldBox() {
  const f = deepAll(zoo, el => el.placeholder === 'What needs to be done?');
  const r = f[0].getBoundingClientRect();
  return { n: f.length, x: r.left, y: r.top, w: r.width, h: r.height, value: f[0].value };
}
// hit is the innermost element at a point, through shadow roots.
function hit(x, y) {
  let el = document.elementFromPoint(x, y);
  while (el && el.shadowRoot) {
    const inner = el.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  return el;
}
function focused() {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  return el;
}
`

// zooEval runs body (a function body that may use the prelude) in the page.
func zooEval(t *testing.T, p *Page, out any, body string, args ...any) {
	t.Helper()
	if err := p.Eval(ctxT(t), out, "(...args) => {"+zooJS+body+"}", args...); err != nil {
		t.Fatalf("eval %s: %v", body, err)
	}
}

type zooBox struct {
	N          int
	X, Y, W, H float64
	Value      string
}

func (b zooBox) cy() float64 { return b.Y + b.H/2 }

// zooDriver acts on one zoo page.
type zooDriver struct {
	t *testing.T
	p *Page
}

func (d zooDriver) texts() []string {
	var out []string
	zooEval(d.t, d.p, &out, `return texts(zoo);`)
	return out
}

func (d zooDriver) text(s string) zooBox {
	d.t.Helper()
	var b zooBox
	zooEval(d.t, d.p, &b, `return textBox(args[0]);`, s)
	if b.N != 1 {
		d.t.Fatalf("%d visible elements show %q, want 1; screen: %q", b.N, s, d.texts())
	}
	return b
}

func (d zooDriver) field() zooBox {
	d.t.Helper()
	var b zooBox
	zooEval(d.t, d.p, &b, `return fieldBox();`)
	if b.N != 1 {
		d.t.Fatalf("%d new-task fields, want 1", b.N)
	}
	return b
}

func (d zooDriver) move(x, y float64) {
	d.t.Helper()
	rp, cancel := d.p.with(ctxT(d.t))
	defer cancel()
	if err := mouseMove(rp, x, y); err != nil {
		d.t.Fatal(err)
	}
}

func (d zooDriver) click(x, y float64) {
	d.t.Helper()
	rp, cancel := d.p.with(ctxT(d.t))
	defer cancel()
	if err := mouseClick(rp, x, y); err != nil {
		d.t.Fatal(err)
	}
}

func (d zooDriver) dblclick(x, y float64) {
	d.t.Helper()
	rp, cancel := d.p.with(ctxT(d.t))
	defer cancel()
	if err := mouseMove(rp, x, y); err != nil {
		d.t.Fatal(err)
	}
	for n := 1; n <= 2; n++ {
		for _, typ := range []proto.InputDispatchMouseEventType{proto.InputDispatchMouseEventTypeMousePressed, proto.InputDispatchMouseEventTypeMouseReleased} {
			buttons := 1
			if typ == proto.InputDispatchMouseEventTypeMouseReleased {
				buttons = 0
			}
			ev := proto.InputDispatchMouseEvent{Type: typ, X: x, Y: y, Button: proto.InputMouseButtonLeft, Buttons: gson.Int(buttons), ClickCount: n}
			if err := ev.Call(rp); err != nil {
				d.t.Fatal(err)
			}
		}
	}
}

func (d zooDriver) typeText(s string) {
	d.t.Helper()
	rp, cancel := d.p.with(ctxT(d.t))
	defer cancel()
	if err := (proto.InputInsertText{Text: s}).Call(rp); err != nil {
		d.t.Fatal(err)
	}
}

func (d zooDriver) press(k input.Key) {
	d.t.Helper()
	rp, cancel := d.p.with(ctxT(d.t))
	defer cancel()
	if err := pressChord(rp, nil, k); err != nil {
		d.t.Fatal(err)
	}
}

// wantScreen waits (up to 5 s) until the zoo's visible texts are want.
func (d zooDriver) wantScreen(what string, want ...string) {
	d.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var got []string
	for {
		got = d.texts()
		if slices.Equal(got, want) {
			return
		}
		select {
		case <-ctx.Done():
			d.t.Fatalf("%s: screen shows\n  %q\nwant\n  %q", what, got, want)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// The geometry every style shares (see css() in zoo_tasks.js): a row's
// checkbox is centred 22px left of its text; the toggle-all checkbox 22px
// left of the new-task field; a row's delete button is centred 12px left of
// the field's right edge.
const (
	zooCheckDX  = 22
	zooDeleteDX = 12
)

func zooTasksScreen(items []string, remaining int) []string {
	unit := "tasks remaining"
	if remaining == 1 {
		unit = "task remaining"
	}
	return append(slices.Clone(items), fmt.Sprint(remaining), unit, "All", "Active", "Completed")
}

func TestZooTasks(t *testing.T) {
	base := fixtureURL(t)
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+"/zoo/tasks?style="+style)
			d := zooDriver{t, p}
			screen := func(what string, remaining int, items ...string) {
				t.Helper()
				d.wantScreen(what, zooTasksScreen(items, remaining)...)
			}
			screen("seed", 4, "oat milk", "oat milk and honey", "bread", "eggs")
			zooMarkup(t, p, style)

			// Add with Enter; the field empties.
			f := d.field()
			d.click(f.X+f.W/2, f.cy())
			d.typeText("jam")
			d.press(input.Enter)
			screen("after adding jam", 5, "oat milk", "oat milk and honey", "bread", "eggs", "jam")
			if v := d.field().Value; v != "" {
				t.Errorf("new-task field holds %q after Enter, want empty", v)
			}
			d.typeText("   ")
			d.press(input.Enter)
			screen("blank text adds nothing", 5, "oat milk", "oat milk and honey", "bread", "eggs", "jam")

			// Clicking an item's text does not complete it; its checkbox does.
			b := d.text("bread")
			d.click(b.X+b.W/2, b.cy())
			screen("click on text", 5, "oat milk", "oat milk and honey", "bread", "eggs", "jam")
			d.click(b.X-zooCheckDX, b.cy())
			screen("bread completed", 4, "oat milk", "oat milk and honey", "bread", "eggs", "jam")

			// Filters.
			a := d.text("Active")
			d.click(a.X+a.W/2, a.cy())
			screen("Active filter", 4, "oat milk", "oat milk and honey", "eggs", "jam")
			c := d.text("Completed")
			d.click(c.X+c.W/2, c.cy())
			screen("Completed filter", 4, "bread")
			all := d.text("All")
			d.click(all.X+all.W/2, all.cy())
			screen("All filter", 4, "oat milk", "oat milk and honey", "bread", "eggs", "jam")

			// Toggle all: on completes everything, off reopens everything.
			f = d.field()
			d.click(f.X-zooCheckDX, f.cy())
			screen("toggle all on", 0, "oat milk", "oat milk and honey", "bread", "eggs", "jam")
			d.click(f.X-zooCheckDX, f.cy())
			screen("toggle all off", 5, "oat milk", "oat milk and honey", "bread", "eggs", "jam")
			d.click(f.X-zooCheckDX, f.cy())
			e := d.text("eggs")
			d.click(e.X-zooCheckDX, e.cy())
			screen("one left: singular", 1, "oat milk", "oat milk and honey", "bread", "eggs", "jam")
			d.click(f.X-zooCheckDX, f.cy()) // not all done: completes all
			screen("toggle all with one open", 0, "oat milk", "oat milk and honey", "bread", "eggs", "jam")
			d.click(f.X-zooCheckDX, f.cy())
			screen("reopened", 5, "oat milk", "oat milk and honey", "bread", "eggs", "jam")

			// Double-click edits in place: the editor has the focus and the
			// text; Enter saves, Escape cancels.
			o := d.text("oat milk")
			d.dblclick(o.X+o.W/2, o.cy())
			var ed struct {
				Tag, Value string
			}
			zooEval(t, p, &ed, `const f = focused(); return { tag: f ? f.tagName : '', value: f ? f.value || '' : '' };`)
			if ed.Tag != "INPUT" || ed.Value != "oat milk" {
				t.Fatalf("after double-click the focus is on %s %q, want an INPUT holding \"oat milk\"", ed.Tag, ed.Value)
			}
			screen("editing oat milk", 5, "oat milk and honey", "bread", "eggs", "jam")
			d.typeText("almond milk") // the editor's text is selected
			d.press(input.Enter)
			screen("renamed", 5, "almond milk", "oat milk and honey", "bread", "eggs", "jam")
			o = d.text("almond milk")
			d.dblclick(o.X+o.W/2, o.cy())
			d.typeText("zzz")
			d.press(input.Escape)
			screen("edit cancelled", 5, "almond milk", "oat milk and honey", "bread", "eggs", "jam")

			// Delete is shown only while its item is hovered.
			hitButton := func(x, y float64) bool {
				var in bool
				zooEval(t, p, &in, `const el = hit(args[0], args[1]); return !!(el && el.closest('button'));`, x, y)
				return in
			}
			f = d.field()
			e = d.text("eggs")
			dx := f.X + f.W - zooDeleteDX
			d.move(f.X+f.W/2, math.Max(f.Y-40, 1)) // off the list
			if hitButton(dx, e.cy()) {
				t.Fatal("a delete button is under the pointer's target spot before the item is hovered")
			}
			d.move(e.X+e.W/2, e.cy())
			if !hitButton(dx, e.cy()) {
				t.Fatal("hovering eggs shows no delete button at the row's end")
			}
			d.click(dx, e.cy())
			screen("eggs deleted", 4, "almond milk", "oat milk and honey", "bread", "jam")

			// Editing to an empty text deletes the item.
			j := d.text("jam")
			d.dblclick(j.X+j.W/2, j.cy())
			d.press(input.Backspace)
			d.press(input.Enter)
			screen("emptied jam deleted", 3, "almond milk", "oat milk and honey", "bread")
		})
	}
}

// zooMarkup checks that a style's DOM is what it claims to be, so the
// styles differ where the zoo means them to: good labels, no ARIA, ARIA on
// wrappers, shadow roots.
func zooMarkup(t *testing.T, p *Page, style string) {
	t.Helper()
	var m struct {
		LabelFor, AriaOnControls, AriaOnWrappers, Aria, TrashSVG, HiddenNative, Shadow, NestedShadow, Classes int
	}
	zooEval(t, p, &m, `
const els = deepAll(zoo, () => true);
const control = el => ['INPUT', 'BUTTON', 'A'].includes(el.tagName);
const aria = el => [...el.attributes].some(a => a.name.startsWith('aria-') || a.name === 'role');
const hosts = els.filter(el => el.shadowRoot);
return {
  labelFor: els.filter(el => el.tagName === 'LABEL' && el.htmlFor).length,
  ariaOnControls: els.filter(el => control(el) && aria(el)).length,
  ariaOnWrappers: els.filter(el => el.tagName === 'DIV' && aria(el)).length,
  aria: els.filter(aria).length,
  trashSVG: els.filter(el => el.tagName === 'svg' && el.dataset.icon === 'trash').length,
  hiddenNative: els.filter(el => el.type === 'checkbox' && getComputedStyle(el).opacity === '0').length,
  shadow: hosts.length,
  nestedShadow: hosts.filter(h => h.getRootNode() instanceof ShadowRoot).length,
};`)
	type check struct {
		what string
		ok   bool
	}
	var checks []check
	switch style {
	case "semantic":
		checks = []check{{"labels tied to the toggle-all and every item checkbox", m.LabelFor == 5}, {"aria on controls (Delete buttons)", m.AriaOnControls >= 4}, {"no shadow roots", m.Shadow == 0}}
	case "divsoup":
		checks = []check{{"no aria or role at all", m.Aria == 0}, {"no label tied to a control", m.LabelFor == 0}, {"no shadow roots", m.Shadow == 0}}
	case "library":
		checks = []check{{"aria on wrapper divs", m.AriaOnWrappers >= 4}, {"no aria on controls", m.AriaOnControls == 0}, {"a trash svg per item", m.TrashSVG == 4}, {"hidden native checkboxes", m.HiddenNative == 5}, {"no labels", m.LabelFor == 0}}
	case "webcomponents":
		checks = []check{{"a list host and one nested host per item", m.Shadow == 5 && m.NestedShadow == 4}}
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s markup: want %s; got %+v", style, c.what, m)
		}
	}
}

func TestZooSettings(t *testing.T) {
	base := fixtureURL(t)
	const labels = "Email notifications|Weekly digest|Dark mode|Language|Save|"
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+"/zoo/settings?style="+style)
			d := zooDriver{t, p}
			screen := func(what, status string) {
				t.Helper()
				d.wantScreen(what, append(strings.Split(labels+status, "|"), zooAvatarScreen...)...)
			}
			screen("initial", "Not saved yet")
			zooSettingsMarkup(t, p, style)
			clickText := func(s string) {
				t.Helper()
				b := d.text(s)
				d.click(b.X+b.W/2, b.cy())
			}

			clickText("Save")
			screen("saved defaults", "Saved: Email notifications on, Weekly digest off, Dark mode off, Language English")

			// A toggle flips by its text or by its box; nothing is saved
			// until Save.
			clickText("Weekly digest")
			e := d.text("Email notifications")
			d.click(e.X-zooCheckDX, e.cy())
			dm := d.text("Dark mode")
			d.click(dm.X-zooSwitchDX, dm.cy())
			screen("changed, not saved", "Saved: Email notifications on, Weekly digest off, Dark mode off, Language English")

			// The select changes with the keyboard (a closed select takes
			// ArrowDown as "next option").
			zooEval(t, p, nil, `deepAll(zoo, el => el.tagName === 'SELECT')[0].focus();`)
			d.press(input.ArrowDown)
			clickText("Save")
			screen("saved changes", "Saved: Email notifications off, Weekly digest on, Dark mode on, Language Deutsch")

			clickText("Dark mode")
			clickText("Weekly digest")
			clickText("Save")
			screen("switched back", "Saved: Email notifications off, Weekly digest off, Dark mode off, Language Deutsch")
		})
	}
}

// zooSwitchDX: a switch (36px wide) is centred 30px left of its text.
const zooSwitchDX = 30

// zooSettingsMarkup checks each style's DOM is the kind it claims to be.
func zooSettingsMarkup(t *testing.T, p *Page, style string) {
	t.Helper()
	var m struct {
		LabelFor, Aria, DivRoles, HiddenNative, NativeBoxes, Shadow, NestedShadow int
	}
	zooEval(t, p, &m, `
const els = deepAll(zoo, () => true);
const aria = el => [...el.attributes].some(a => a.name.startsWith('aria-') || a.name === 'role');
const hosts = els.filter(el => el.shadowRoot);
return {
  labelFor: els.filter(el => el.tagName === 'LABEL' && el.htmlFor).length,
  aria: els.filter(aria).length,
  divRoles: els.filter(el => el.tagName === 'DIV' && ['checkbox', 'switch'].includes(el.getAttribute('role'))).length,
  hiddenNative: els.filter(el => el.type === 'checkbox' && getComputedStyle(el).opacity === '0').length,
  nativeBoxes: els.filter(el => el.type === 'checkbox').length,
  shadow: hosts.length,
  nestedShadow: hosts.filter(h => h.getRootNode() instanceof ShadowRoot).length,
};`)
	ok := map[string]bool{
		"semantic":      m.LabelFor == 4+1 && m.NativeBoxes == 3 && m.DivRoles == 0 && m.Shadow == 0, // +1: the avatar's label
		"divsoup":       m.Aria == 0 && m.LabelFor == 0 && m.NativeBoxes == 0 && m.Shadow == 0,
		"library":       m.HiddenNative == 2 && m.DivRoles == 1 && m.LabelFor == 0 && m.Shadow == 0,
		"webcomponents": m.DivRoles == 3 && m.NativeBoxes == 0 && m.Shadow == 4+2 && m.NestedShadow == 3+1, // +2, +1: the avatar upload
	}[style]
	if !ok {
		t.Errorf("%s settings markup is not what the style promises: %+v", style, m)
	}
}
