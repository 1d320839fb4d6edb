package browser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"

	"github.com/e2e-dev/e2e/session/fixture"
)

// The zoo's drag and upload, driven as a person does with a real browser:
// a mouse drag (Chrome's own drag and drop, intercepted over CDP and played
// back at the drop point, for pages that use HTML5 drag and drop) and the
// file chooser that a click on "Choose file" opens.

// realDrag drags with the mouse from (x0, y0) to (x1, y1). With html5 the
// page starts an HTML5 drag: Chrome's drag is intercepted (headless Chrome
// has no OS drag loop) and its data dropped at (x1, y1) with
// Input.dispatchDragEvent, as Puppeteer's dragAndDrop does. Without it the
// page follows the pointer events alone.
func (d zooDriver) realDrag(x0, y0, x1, y1 float64, html5 bool) {
	d.t.Helper()
	rp, cancel := d.p.with(ctxT(d.t))
	defer cancel()
	call := func(what string, err error) {
		d.t.Helper()
		if err != nil {
			d.t.Fatalf("%s: %v", what, err)
		}
	}
	var data *proto.InputDragData
	var wait func()
	if html5 {
		call("intercept drags", proto.InputSetInterceptDrags{Enabled: true}.Call(rp))
		defer func() { _ = proto.InputSetInterceptDrags{Enabled: false}.Call(rp) }()
		wait = rp.EachEvent(func(e *proto.InputDragIntercepted) bool { data = e.Data; return true })
	}
	call("move", mouseMove(rp, x0, y0))
	call("press", proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMousePressed, X: x0, Y: y0,
		Button: proto.InputMouseButtonLeft, Buttons: gson.Int(1), ClickCount: 1}.Call(rp))
	for i := 1; i <= dragSteps; i++ {
		f := float64(i) / dragSteps
		call("drag move", proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseMoved,
			X: x0 + (x1-x0)*f, Y: y0 + (y1-y0)*f, Button: proto.InputMouseButtonLeft, Buttons: gson.Int(1)}.Call(rp))
	}
	if html5 {
		wait()
		if data == nil {
			d.t.Fatal("the mouse drag started no HTML5 drag")
		}
		for _, typ := range []proto.InputDispatchDragEventType{proto.InputDispatchDragEventTypeDragEnter,
			proto.InputDispatchDragEventTypeDragOver, proto.InputDispatchDragEventTypeDrop} {
			call(string(typ), proto.InputDispatchDragEvent{Type: typ, X: x1, Y: y1, Data: data}.Call(rp))
		}
	}
	call("release", proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseReleased, X: x1, Y: y1,
		Button: proto.InputMouseButtonLeft, Buttons: gson.Int(0), ClickCount: 1}.Call(rp))
}

func TestZooTasksReorder(t *testing.T) {
	base := fixtureURL(t)
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+"/zoo/tasks?style="+style)
			d := zooDriver{t, p}
			screen := func(what string, items ...string) {
				t.Helper()
				d.wantScreen(what, zooTasksScreen(items, 4)...)
			}
			screen("seed", "oat milk", "oat milk and honey", "bread", "eggs")
			html5 := style != "divsoup"
			var draggable int
			zooEval(t, p, &draggable, `return deepAll(zoo, el => el.draggable && el.getAttribute('draggable') === 'true').length;`)
			if want := map[bool]int{true: 4, false: 0}[html5]; draggable != want {
				t.Errorf("%s: %d draggable rows, want %d", style, draggable, want)
			}
			drag := func(from, to string) {
				t.Helper()
				a, b := d.text(from), d.text(to)
				d.realDrag(a.X+a.W/2, a.cy(), b.X+b.W/2, b.cy(), html5)
			}

			// Dropped on an item, a dragged item goes before it when it came
			// from below, after it when it came from above.
			drag("eggs", "oat milk")
			screen("eggs before oat milk", "eggs", "oat milk", "oat milk and honey", "bread")
			drag("oat milk", "bread")
			screen("oat milk after bread", "eggs", "oat milk and honey", "bread", "oat milk")
			b := d.text("bread")
			d.realDrag(b.X+b.W/2, b.cy(), b.X+b.W/2+40, b.cy(), html5)
			screen("dropped on itself", "eggs", "oat milk and honey", "bread", "oat milk")

			// A press and release without moving is a click, not a drag; the
			// list still edits in place after a reorder.
			b = d.text("bread")
			d.click(b.X+b.W/2, b.cy())
			screen("clicked, not moved", "eggs", "oat milk and honey", "bread", "oat milk")
			d.dblclick(b.X+b.W/2, b.cy())
			d.typeText("rye bread")
			d.press(input.Enter)
			screen("edited after reorder", "eggs", "oat milk and honey", "rye bread", "oat milk")
		})
	}
}

// zooAvatarScreen is what the avatar upload under the settings form shows
// before a file is chosen.
var zooAvatarScreen = []string{"Avatar", "Choose file", "No file chosen"}

// zooRefAt is the ref of the snapshot's interactable element of role (any
// role when "") that is the element at the point (x, y), inside it or
// around it (through shadow roots): the tests find elements by geometry,
// never by the locator.
func zooRefAt(t *testing.T, p *Page, role string, x, y float64) string {
	t.Helper()
	var hits []string
	for _, n := range snap(t, p, SnapshotOptions{}).Interactable() {
		if role != "" && n.Role != role {
			continue
		}
		var in bool
		zooEval(t, p, &in, `const el = window.__e2e.resolve(args[0]), at = hit(args[1], args[2]);
const under = (a, b) => { for (let n = a; n; n = n.parentNode || n.host) if (n === b) return true; return false; };
return !!el && !!at && (under(el, at) || under(at, el));`, n.Ref, x, y)
		if in {
			hits = append(hits, n.Ref)
		}
	}
	if len(hits) != 1 {
		t.Fatalf("%d %s elements at (%.0f, %.0f), want 1", len(hits), role, x, y)
	}
	return hits[0]
}

// TestZooTasksDragStep: the drag step (Page.Drag) reorders the zoo's list
// in every style: HTML5 drag events where rows are draggable (from an
// element inside a row, also inside the row's own shadow root), pointer
// events in divsoup. It drags by each row's checkbox, the one control every
// style gives a ref.
func TestZooTasksDragStep(t *testing.T) {
	base := fixtureURL(t)
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+"/zoo/tasks?style="+style)
			d := zooDriver{t, p}
			check := func(text string) string {
				t.Helper()
				b := d.text(text)
				return zooRefAt(t, p, "checkbox", b.X-zooCheckDX, b.cy())
			}
			must(t, p.Drag(ctxT(t), check("eggs"), check("oat milk"), ActOptions{}))
			d.wantScreen("eggs dragged onto oat milk", zooTasksScreen([]string{"eggs", "oat milk", "oat milk and honey", "bread"}, 4)...)
			must(t, p.Drag(ctxT(t), check("oat milk"), check("bread"), ActOptions{}))
			d.wantScreen("oat milk dragged onto bread", zooTasksScreen([]string{"eggs", "oat milk and honey", "bread", "oat milk"}, 4)...)
		})
	}
}

func TestZooSettingsUpload(t *testing.T) {
	base := fixtureURL(t)
	dir := t.TempDir()
	portrait, other := filepath.Join(dir, "portrait.png"), filepath.Join(dir, "holiday photo.jpg")
	for _, f := range []string{portrait, other} {
		if err := os.WriteFile(f, []byte("not really an image"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	const labels = "Email notifications|Weekly digest|Dark mode|Language|Save|Not saved yet|Avatar|Choose file|"
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+"/zoo/settings?style="+style)
			d := zooDriver{t, p}
			screen := func(what, name string) {
				t.Helper()
				d.wantScreen(what, strings.Split(labels+name, "|")...)
			}
			screen("initial", "No file chosen")
			zooUploadMarkup(t, p, style)

			// A click on "Choose file" opens the file chooser for an image
			// input; the chosen file's name replaces "No file chosen".
			choose := func(file string) {
				t.Helper()
				rp, cancel := p.with(ctxT(t))
				defer cancel()
				if err := (proto.PageSetInterceptFileChooserDialog{Enabled: true}).Call(rp); err != nil {
					t.Fatal(err)
				}
				defer func() { _ = proto.PageSetInterceptFileChooserDialog{Enabled: false}.Call(rp) }()
				var opened *proto.PageFileChooserOpened
				wait := rp.EachEvent(func(e *proto.PageFileChooserOpened) bool { opened = e; return true })
				c := d.text("Choose file")
				d.click(c.X+c.W/2, c.cy())
				wait()
				if opened == nil || opened.BackendNodeID == 0 {
					t.Fatalf("clicking Choose file opened no file chooser for an input (%+v)", opened)
				}
				if opened.Mode != proto.PageFileChooserOpenedModeSelectSingle {
					t.Errorf("file chooser mode %s, want selectSingle", opened.Mode)
				}
				if err := (proto.DOMSetFileInputFiles{Files: []string{file}, BackendNodeID: opened.BackendNodeID}).Call(rp); err != nil {
					t.Fatal(err)
				}
			}
			choose(portrait)
			screen("portrait chosen", "portrait.png")
			choose(other)
			screen("another file chosen", "holiday photo.jpg")

			// The form redraws without losing the chosen name.
			s := d.text("Save")
			d.click(s.X+s.W/2, s.cy())
			d.wantScreen("saved", strings.Split(strings.Replace(labels, "Not saved yet",
				"Saved: Email notifications on, Weekly digest off, Dark mode off, Language English", 1)+"holiday photo.jpg", "|")...)
		})
	}
}

// TestZooSettingsUploadStep: the upload step (Page.SetFiles) on the element
// under "Choose file" sets the avatar's file input, and the page shows the
// name. divsoup is left out: its "Choose file" is a div with a click
// listener only, which the snapshot gives no ref (the upload itself would
// work: the input is inside the div).
func TestZooSettingsUploadStep(t *testing.T) {
	base := fixtureURL(t)
	file := filepath.Join(t.TempDir(), "portrait.png")
	if err := os.WriteFile(file, []byte("not really an image"), 0o600); err != nil {
		t.Fatal(err)
	}
	const labels = "Email notifications|Weekly digest|Dark mode|Language|Save|Not saved yet|Avatar|Choose file|"
	for _, style := range []string{"semantic", "library", "webcomponents"} {
		t.Run(style, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+"/zoo/settings?style="+style)
			d := zooDriver{t, p}
			c := d.text("Choose file")
			must(t, p.SetFiles(ctxT(t), zooRefAt(t, p, "", c.X+c.W/2, c.cy()), []string{file}))
			d.wantScreen("portrait chosen", strings.Split(labels+"portrait.png", "|")...)
		})
	}
}

// zooUploadMarkup checks each style's file input is the kind it claims:
// labelled by for=, display:none inside a div, visually hidden inside a
// label with ARIA on the wrapper, or in a nested shadow root.
func zooUploadMarkup(t *testing.T, p *Page, style string) {
	t.Helper()
	var m struct {
		Inputs, LabelFor, Hidden, InLabel, WrapperAria, Depth int
		Accept                                                string
	}
	zooEval(t, p, &m, `
const f = deepAll(zoo, el => el.type === 'file');
const el = f[0];
if (!el) return { inputs: 0 };
let depth = 0; for (let r = el.getRootNode(); r instanceof ShadowRoot; r = r.host.getRootNode()) depth++;
return {
  inputs: f.length,
  labelFor: el.labels ? [...el.labels].filter(l => l.htmlFor === el.id).length : 0,
  hidden: getComputedStyle(el).display === 'none' ? 1 : 0,
  inLabel: el.parentElement && el.parentElement.tagName === 'LABEL' ? 1 : 0,
  wrapperAria: el.closest('[role=group][aria-label]') ? 1 : 0,
  depth,
  accept: el.accept,
};`)
	ok := m.Inputs == 1 && m.Accept == "image/*" && map[string]bool{
		"semantic":      m.LabelFor == 1 && m.Hidden == 0 && m.Depth == 0,
		"divsoup":       m.LabelFor == 0 && m.Hidden == 1 && m.WrapperAria == 0 && m.Depth == 0,
		"library":       m.InLabel == 1 && m.WrapperAria == 1 && m.Depth == 0,
		"webcomponents": m.Depth == 2,
	}[style]
	if !ok {
		t.Errorf("%s upload markup is not what the style promises: %+v", style, m)
	}
}
