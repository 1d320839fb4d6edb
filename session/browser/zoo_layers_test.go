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

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/fixture"
)

// The zoo pages with layers (/zoo/table's row menus in a portal, /zoo/modal's
// dialog and popover) draw outside the zoo root too. These tests read the
// zoo root and every element the page appended to <body> after <main>, and
// act, as the other zoo tests do, at screen points found from visible text
// and the shared geometry.

// zooLayersJS extends zooJS: layers are the zoo root and what the page put
// after <main> (portals), screen() their visible texts in order, box(t) the
// one visible element whose own text is t in any of them.
const zooLayersJS = `
const main = document.querySelector('main');
const layers = [zoo, ...[...document.body.children].filter(el =>
  el.tagName !== 'SCRIPT' && (el.compareDocumentPosition(main) & Node.DOCUMENT_POSITION_PRECEDING))];
function layerTexts(l) { return l.shadowRoot ? texts(l.shadowRoot).concat(texts(l)) : texts(l); }
function screen() { return layers.flatMap(layerTexts); }
function inLayers(pred) {
  return layers.flatMap(l => (l.shadowRoot ? deepAll(l.shadowRoot, pred) : []).concat(deepAll(l, pred)));
}
function ownText(t) {
  return inLayers(el => visible(el) && [...el.childNodes].some(c => c.nodeType === 3 && c.data.trim() === t));
}
function rect(el) { const r = el.getBoundingClientRect(); return { n: 1, x: r.left, y: r.top, w: r.width, h: r.height }; }
function box(t) { const hits = ownText(t); return hits.length === 1 ? rect(hits[0]) : { n: hits.length }; }
// layerOf is the child of <body> that holds el (through shadow roots).
function layerOf(el) {
  for (let n = el; n; n = n.parentNode || n.host) if (n.parentNode === document.body) return n;
  return null;
}
`

func zooLayersEval(t *testing.T, p *Page, out any, body string, args ...any) {
	t.Helper()
	zooEval(t, p, out, zooLayersJS+body, args...)
}

// layers is a zooDriver that sees portals.
type zooLayers struct{ zooDriver }

func (d zooLayers) screen() []string {
	var out []string
	zooLayersEval(d.t, d.p, &out, `return screen();`)
	return out
}

func (d zooLayers) box(s string) zooBox {
	d.t.Helper()
	var b zooBox
	zooLayersEval(d.t, d.p, &b, `return box(args[0]);`, s)
	if b.N != 1 {
		d.t.Fatalf("%d visible elements show %q, want 1; screen: %q", b.N, s, d.screen())
	}
	return b
}

func (d zooLayers) clickText(s string) {
	d.t.Helper()
	b := d.box(s)
	d.click(b.X+b.W/2, b.cy())
}

// want waits (up to 5 s) until the visible texts of the zoo and its layers are want.
func (d zooLayers) want(what string, want ...string) {
	d.t.Helper()
	waitFor(d.t, what, func() ([]string, bool) { got := d.screen(); return got, slices.Equal(got, want) }, want)
}

func waitFor(t *testing.T, what string, poll func() ([]string, bool), want []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // generous: ends as soon as the page shows it
	defer cancel()
	for {
		got, ok := poll()
		if ok {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: screen shows\n  %q\nwant\n  %q", what, got, want)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// focusedIs reports the focused element (through shadow roots): its tag,
// value and own text.
func (d zooLayers) focused() (tag, value, text string) {
	var f struct{ Tag, Value, Text string }
	zooLayersEval(d.t, d.p, &f, `const f = focused(); return f ? { tag: f.tagName, value: f.value || '', text: f.textContent.trim() } : {};`)
	return f.Tag, f.Value, f.Text
}

// The table's geometry (see css() in zoo_table.js): a row's kebab button is
// centred zooKebabDX right of its name's left edge; the open menu is 160px
// wide, right-aligned with the kebab, its items 1px (the border) inside it.
const (
	zooKebabDX     = 598
	zooMenuTextDX  = -160 + 1
	zooMenuItemGap = 36
)

type zooMember struct{ name, email, role, status string }

var zooSeedMembers = []zooMember{
	{"Bob Stone", "bob.stone@example.com", "Editor", "Active"},
	{"Ann Leeds", "ann.leeds@example.com", "Editor", "Invited"},
	{"Cara Diaz", "cara.diaz@example.com", "Viewer", "Active"},
	{"Ann Lee", "ann.lee@example.com", "Admin", "Active"},
	{"Dev Patel", "dev.patel@example.com", "Owner", "Suspended"},
	{"Eve Kim", "eve.kim@example.com", "Billing", "Invited"},
}

func zooTableScreen(rows []zooMember, menuOpen bool) []string {
	out := []string{"Name", "Email", "Role", "Status"}
	for _, m := range rows {
		out = append(out, m.name, m.email, m.role, m.status)
	}
	unit := " members"
	if len(rows) == 1 {
		unit = " member"
	}
	out = append(out, fmt.Sprint(len(rows))+unit)
	if menuOpen {
		out = append(out, "Edit", "Duplicate", "Delete")
	}
	return out
}

func TestZooTable(t *testing.T) {
	base := fixtureURL(t)
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+"/zoo/table?style="+style)
			d := zooLayers{zooDriver{t, p}}
			rows := slices.Clone(zooSeedMembers)
			screen := func(what string, menuOpen bool) {
				t.Helper()
				d.want(what, zooTableScreen(rows, menuOpen)...)
			}
			without := func(name string) {
				rows = slices.DeleteFunc(rows, func(m zooMember) bool { return m.name == name })
			}
			screen("seed", false)
			zooTableMarkup(t, p, style)

			// kebab finds the button at a row's kebab spot.
			kebab := func(name string) zooBox {
				t.Helper()
				n := d.box(name)
				var b zooBox
				zooLayersEval(t, p, &b, `const el = hit(args[0], args[1]); const b = el && el.closest('button');
return b ? rect(b) : { n: 0 };`, n.X+zooKebabDX, n.cy())
				if b.N != 1 {
					t.Fatalf("no button at the kebab spot of the %s row", name)
				}
				return b
			}
			// openMenu clicks a row's kebab and checks the menu is drawn in a
			// portal at the end of <body>, under the kebab.
			openMenu := func(name string) {
				t.Helper()
				k := kebab(name)
				d.click(k.X+k.W/2, k.cy())
				screen("menu of "+name, true)
				var where struct {
					InZoo, Last bool
					X, Y        float64
				}
				zooLayersEval(t, p, &where, `const el = ownText('Edit')[0]; const r = el.getBoundingClientRect();
return { inZoo: zoo.contains(layerOf(el)), last: layerOf(el) === document.body.lastElementChild, x: r.left, y: r.top };`)
				if where.InZoo || !where.Last {
					t.Fatalf("the menu of %s is not in a portal at the end of <body> (in the zoo: %v, last child: %v)", name, where.InZoo, where.Last)
				}
				if math.Abs(where.X-(k.X+k.W+zooMenuTextDX)) > 1.5 || where.Y < k.Y+k.H || where.Y > k.Y+k.H+zooMenuItemGap {
					t.Fatalf("the menu of %s shows Edit at (%.0f, %.0f), want it 13px inside a 160px menu right-aligned under the kebab at %+v", name, where.X, where.Y, k)
				}
			}

			// Escape closes the menu and gives the focus back to the kebab.
			openMenu("Ann Lee")
			d.press(input.Escape)
			screen("Escape closes the menu", false)
			if tag, _, _ := d.focused(); tag != "BUTTON" {
				t.Errorf("after Escape the focus is on %q, want the kebab button", tag)
			}

			// Delete removes the row the menu was opened from, not its near-miss.
			openMenu("Ann Lee")
			d.clickText("Delete")
			without("Ann Lee")
			screen("Ann Lee deleted", false)

			// Duplicate inserts a copy after the row.
			openMenu("Bob Stone")
			d.clickText("Duplicate")
			rows = slices.Insert(rows, 1, zooMember{"Bob Stone (copy)", "bob.stone@example.com", "Editor", "Invited"})
			screen("Bob Stone duplicated", false)

			// A click outside closes the menu and does nothing else; a
			// second kebab moves the menu to its row.
			openMenu("Dev Patel")
			d.clickText("6 members")
			screen("an outside click closes it", false)
			openMenu("Eve Kim") // the menu opens downwards: open the lower row first
			openMenu("Dev Patel")
			d.clickText("Delete")
			without("Dev Patel")
			screen("Dev Patel deleted from the moved menu", false)

			// The Name header sorts ascending, then descending.
			d.clickText("Name")
			byName := func(desc bool) {
				slices.SortFunc(rows, func(a, b zooMember) int {
					c := 0
					if a.name < b.name {
						c = -1
					} else if a.name > b.name {
						c = 1
					}
					if desc {
						c = -c
					}
					return c
				})
			}
			byName(false)
			screen("sorted ascending", false)
			d.clickText("Name")
			byName(true)
			screen("sorted descending", false)

			// Edit turns the name into a field holding it; Enter saves,
			// Escape cancels.
			openMenu("Cara Diaz")
			d.clickText("Edit")
			if tag, v, _ := d.focused(); tag != "INPUT" || v != "Cara Diaz" {
				t.Fatalf("after Edit the focus is on %s %q, want an INPUT holding \"Cara Diaz\"", tag, v)
			}
			d.want("editing Cara Diaz", slices.DeleteFunc(zooTableScreen(rows, false), func(s string) bool { return s == "Cara Diaz" })...)
			d.typeText("Cara Ortiz") // the field's text is selected
			d.press(input.Enter)
			for i := range rows {
				if rows[i].name == "Cara Diaz" {
					rows[i].name = "Cara Ortiz"
				}
			}
			byName(true)
			screen("renamed", false)
			openMenu("Eve Kim")
			d.clickText("Edit")
			d.typeText("zzz")
			d.press(input.Escape)
			screen("edit cancelled", false)
		})
	}
}

// zooTableMarkup checks each style's DOM is the kind it claims to be.
func zooTableMarkup(t *testing.T, p *Page, style string) {
	t.Helper()
	var m struct {
		Table, AriaSort, LabelledButtons, Aria, AriaOnWrappers, AriaOnControls, Shadow, NestedShadow, Keys int
	}
	zooLayersEval(t, p, &m, `
const els = inLayers(() => true);
const aria = el => [...el.attributes].some(a => a.name.startsWith('aria-') || a.name === 'role');
const control = el => ['INPUT', 'BUTTON', 'A'].includes(el.tagName);
const hosts = els.filter(el => el.shadowRoot);
return {
  table: els.filter(el => el.tagName === 'TABLE').length,
  ariaSort: els.filter(el => el.hasAttribute('aria-sort')).length,
  labelledButtons: els.filter(el => el.tagName === 'BUTTON' && (el.getAttribute('aria-label') || el.title)).length,
  aria: els.filter(aria).length,
  ariaOnWrappers: els.filter(el => el.tagName === 'DIV' && aria(el)).length,
  ariaOnControls: els.filter(el => control(el) && aria(el)).length,
  shadow: hosts.length,
  nestedShadow: hosts.filter(h => h.getRootNode() instanceof ShadowRoot).length,
  keys: els.filter(el => el.dataset.zooKey).length,
};`)
	ok := map[string]bool{
		"semantic":      m.Table == 1 && m.AriaSort == 1 && m.LabelledButtons == 6 && m.Shadow == 0,
		"divsoup":       m.Table == 0 && m.Aria == 0 && m.LabelledButtons == 0 && m.Shadow == 0,
		"library":       m.Table == 0 && m.AriaSort == 1 && m.AriaOnWrappers >= 6*5 && m.AriaOnControls == 0 && m.Shadow == 0,
		"webcomponents": m.Table == 0 && m.LabelledButtons == 6 && m.Shadow == 7 && m.NestedShadow == 6,
	}[style]
	// Every row, its cells and kebab, the sort header (the header and its
	// control, one control) and the count line; the library style's cells
	// also key the text span inside each of the four text cells.
	keys := 6*6 + 3
	if style == "library" {
		keys += 6 * 4
	}
	if !ok || m.Keys != keys {
		t.Errorf("%s table markup is not what the style promises: %+v", style, m)
	}
}

// The modal page's geometry (see css() in zoo_modal.js): the dialog is a
// 400px box 120px from the top, centred; its title 16px inside; the
// popover's text (a block) 13px right of the Share button's left edge.
const zooPopoverDX = 13

func TestZooModal(t *testing.T) {
	base := fixtureURL(t)
	const title = "Edit display name"
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+"/zoo/modal?style="+style)
			d := zooLayers{zooDriver{t, p}}
			name, status := "Ann Lee", "Nothing saved yet"
			page := func() []string { return []string{"Display name", name, "Edit name", "Share", status} }
			closed := func(what string) { t.Helper(); d.want(what, page()...) }
			dialog := func(what string) { t.Helper(); d.want(what, append(page(), title, "×", "Name", "Cancel", "Save")...) }
			closed("initial")
			zooModalMarkup(t, p, style, false)

			// openDialog clicks Edit name and checks the dialog: drawn at the
			// shared spot, the focus in its field holding the name, the page
			// behind it not clickable.
			openDialog := func() {
				t.Helper()
				e := d.box("Edit name")
				d.click(e.X+e.W/2, e.cy())
				dialog("dialog open")
				var g struct {
					VW, X, Y float64
					Blocked  bool
				}
				zooLayersEval(t, p, &g, `const r = ownText(args[2])[0].getBoundingClientRect(); const el = hit(args[0], args[1]);
return { vw: innerWidth, x: r.left, y: r.top, blocked: !(el && el.closest('button') && el.closest('button').textContent.trim() === 'Edit name') };`,
					e.X+e.W/2, e.cy(), title)
				if math.Abs(g.X-(g.VW/2-200+16)) > 1.5 || g.Y < 120 || g.Y > 168 {
					t.Errorf("the dialog's title is at (%.0f, %.0f), want 16px inside a centred 400px box 120px from the top (viewport %.0f)", g.X, g.Y, g.VW)
				}
				if !g.Blocked {
					t.Error("the Edit name button behind the open dialog still takes the click")
				}
				if tag, v, _ := d.focused(); tag != "INPUT" || v != name {
					t.Fatalf("the open dialog's focus is on %s %q, want its INPUT holding %q", tag, v, name)
				}
			}
			openDialog()
			zooModalMarkup(t, p, style, true)

			// Tab and Shift+Tab stay inside the dialog.
			trapped := func(what string) {
				t.Helper()
				var in bool
				zooLayersEval(t, p, &in, `const f = focused(); if (!f || f === document.body) return false;
const r = f.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
return x > innerWidth / 2 - 200 && x < innerWidth / 2 + 200 && y > 120 && y < 120 + 168;`)
				if !in {
					tag, _, text := d.focused()
					t.Fatalf("%s: the focus left the dialog for %s %q", what, tag, text)
				}
			}
			for i := range 5 {
				d.press(input.Tab)
				trapped(fmt.Sprintf("Tab %d", i+1))
			}
			rp, cancel := p.with(ctxT(t))
			for i := range 5 {
				if err := pressChord(rp, []input.Key{input.ShiftLeft}, input.Tab); err != nil {
					t.Fatal(err)
				}
				trapped(fmt.Sprintf("Shift+Tab %d", i+1))
			}
			cancel()

			// Save: the field's text is selected on open, so typing replaces it.
			d.clickText("Cancel")
			closed("cancelled")
			openDialog()
			d.typeText("Ann Leeds")
			d.clickText("Save")
			name, status = "Ann Leeds", "Saved: Ann Leeds"
			closed("saved")
			if _, _, text := d.focused(); text != "Edit name" {
				t.Errorf("after Save the focus is on %q, want the Edit name button", text)
			}

			// Escape and × discard the change; a blank name does not save;
			// Enter saves.
			openDialog()
			d.typeText("Zed")
			d.press(input.Escape)
			closed("Escape discards")
			openDialog()
			d.typeText("Zed")
			d.clickText("×")
			closed("× discards")
			openDialog()
			d.press(input.Backspace)
			d.clickText("Save")
			d.want("blank name keeps the dialog open", "Display name", name, "Edit name", "Share", status, title, "×", "Name", "Cancel", "Save")
			d.typeText("Bo")
			d.press(input.Enter)
			name, status = "Bo", "Saved: Bo"
			closed("Enter saves")

			// The Share popover: under the Share button; Copy link reports.
			popover := func(what string) {
				t.Helper()
				var s zooBox
				t0 := d.box("Share")
				zooLayersEval(t, p, &s, `const b = hit(args[0], args[1]).closest('button'); return b ? rect(b) : { n: 0 };`, t0.X+t0.W/2, t0.cy())
				if s.N != 1 {
					t.Fatal("no button under the Share text")
				}
				d.click(s.X+s.W/2, s.cy())
				d.want(what, append(page(), "Anyone with the link can view", "Copy link")...)
				hint := d.box("Anyone with the link can view")
				if math.Abs(hint.X-(s.X+zooPopoverDX)) > 1.5 || hint.Y < s.Y+s.H || hint.Y > s.Y+s.H+40 {
					t.Errorf("%s: the popover's text is at (%.0f, %.0f), want it %dpx right of the Share button at %+v and below it", what, hint.X, hint.Y, zooPopoverDX, s)
				}
			}
			popover("popover open")
			d.clickText("Copy link")
			status = "Link copied"
			closed("link copied")
			popover("popover again")
			d.press(input.Escape)
			closed("Escape closes the popover")
			popover("popover to toggle")
			d.clickText("Share")
			closed("Share toggles the popover")
			popover("popover, then outside")
			d.clickText("Display name")
			closed("an outside click closes the popover")
			popover("popover, then the dialog")
			d.clickText("Edit name")
			dialog("opening the dialog closes the popover")
			d.clickText("Cancel")
			closed("cancelled at the end")
		})
	}
}

// zooModalMarkup checks each style's DOM is the kind it claims to be: a
// <dialog> with a labelled heading, fixed divs and a × span, a portal
// with ARIA on wrappers, shadow roots.
func zooModalMarkup(t *testing.T, p *Page, style string, open bool) {
	t.Helper()
	var m struct {
		Dialog, RoleDialog, Labelled, Aria, Portal, CloseSpan, Shadow, NestedShadow, Keys int
	}
	zooLayersEval(t, p, &m, `
const els = inLayers(() => true);
const aria = el => [...el.attributes].some(a => a.name.startsWith('aria-') || a.name === 'role');
const hosts = els.filter(el => el.shadowRoot);
return {
  dialog: els.filter(el => el.tagName === 'DIALOG').length,
  roleDialog: els.filter(el => el.getAttribute('role') === 'dialog' && el.getAttribute('aria-modal') === 'true').length,
  labelled: els.filter(el => el.getAttribute('aria-labelledby')).length,
  aria: els.filter(aria).length,
  portal: layers.length - 1,
  closeSpan: els.filter(el => el.tagName === 'SPAN' && el.textContent === '×').length,
  shadow: hosts.length,
  nestedShadow: hosts.filter(h => h.getRootNode() instanceof ShadowRoot).length,
  keys: els.filter(el => el.dataset.zooKey).length,
};`)
	var ok bool
	keys := 4 // value, opener, share, status
	if style == "library" {
		keys++ // the status alert and the message inside it are one
	}
	if open {
		keys += 5 // dialog, close, field, cancel, save
		ok = map[string]bool{
			"semantic":      m.Dialog == 1 && m.Labelled == 1 && m.Portal == 0 && m.Shadow == 0,
			"divsoup":       m.Dialog == 0 && m.Aria == 0 && m.CloseSpan == 1 && m.Portal == 0 && m.Shadow == 0,
			"library":       m.Dialog == 0 && m.RoleDialog == 1 && m.Labelled == 1 && m.Portal == 1 && m.Shadow == 0,
			"webcomponents": m.RoleDialog == 1 && m.Shadow == 3 && m.NestedShadow == 2,
		}[style]
	} else {
		ok = m.Dialog == 0 && m.RoleDialog == 0 && m.Portal == 0 && map[string]bool{
			"semantic": m.Shadow == 0, "divsoup": m.Aria == 0 && m.Shadow == 0, "library": m.Shadow == 0, "webcomponents": m.Shadow == 1,
		}[style]
	}
	if !ok || m.Keys != keys {
		t.Errorf("%s modal markup (open %v) is not what the style promises: %+v", style, open, m)
	}
}

// TestZooLayersMatchChromeAccessibilityTree is the oracle test for the
// zoo's open layers (the oracle test proper loads pages in their first
// state, with every layer closed): the snapshot's roles and names of the
// open row menu (a portal), the row's name editor, the open dialog and the
// open popover agree with Chrome's accessibility tree in every style.
func TestZooLayersMatchChromeAccessibilityTree(t *testing.T) {
	base := fixtureURL(t)
	states := []struct {
		name, path string
		open       func(d zooLayers)
	}{
		{"row menu", "/zoo/table", func(d zooLayers) {
			n := d.box("Ann Lee")
			d.click(n.X+zooKebabDX, n.cy())
			d.box("Duplicate")
		}},
		{"name editor", "/zoo/table", func(d zooLayers) {
			n := d.box("Ann Lee")
			d.click(n.X+zooKebabDX, n.cy())
			d.clickText("Edit")
			d.want("editing", slices.DeleteFunc(zooTableScreen(zooSeedMembers, false), func(s string) bool { return s == "Ann Lee" })...)
		}},
		{"dialog", "/zoo/modal", func(d zooLayers) { d.clickText("Edit name"); d.box("Edit display name") }},
		{"popover", "/zoo/modal", func(d zooLayers) { d.clickText("Share"); d.box("Copy link") }},
	}
	for _, st := range states {
		for _, style := range fixture.ZooStyles {
			t.Run(st.name+"/"+style, func(t *testing.T) {
				p := newPage(t)
				path := st.path + "?style=" + style
				open(t, p, base+path)
				st.open(zooLayers{zooDriver{t, p}})
				s, err := p.Snapshot(ctxT(t), SnapshotOptions{})
				if err != nil {
					t.Fatal(err)
				}
				chrome := chromeTree(t, p)
				var bad, inert []string
				for _, n := range s.Interactable() {
					c, ok := chrome[backendID(t, p, n.Ref)]
					key := fmt.Sprintf("%s %s %q", path, n.Role, n.Name)
					if !ok {
						if inertBehindModal(t, p, n.Ref) {
							// A modal <dialog> makes the rest of the page
							// inert: Chrome drops it from the tree, and so
							// must the snapshot.
							inert = append(inert, key)
							continue
						}
						bad = append(bad, key+": Chrome has no (unignored) node for it")
						continue
					}
					role := c.role
					if a, ok := roleAliases[role]; ok {
						role = a
					}
					if role != n.Role || strings.Join(strings.Fields(c.name), " ") != n.Name {
						bad = append(bad, fmt.Sprintf("%s: Chrome says %s %q", key, c.role, c.name))
					}
				}
				// nor any text or container behind it
				s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
					if n.Ref != "" && !n.States.Interactive && inertBehindModal(t, p, n.Ref) {
						inert = append(inert, n.Line())
					}
					return true
				})
				if len(inert) > 0 {
					t.Errorf("%d elements inert behind the modal <dialog> are in the snapshot, not in Chrome's tree: %s", len(inert), strings.Join(inert, ", "))
				}
				if len(bad) > 0 {
					t.Errorf("%s open, %d elements disagree with Chrome:\n%s\nsnapshot:\n%s", st.name, len(bad), strings.Join(bad, "\n"), s.Text(ax.TextOptions{}))
				}
			})
		}
	}
}

// inertBehindModal reports whether the element behind ref is outside an
// open modal <dialog> (so inert).
func inertBehindModal(t *testing.T, p *Page, ref string) bool {
	t.Helper()
	var inert bool
	if err := p.Eval(ctxT(t), &inert, `(r) => { const d = document.querySelector('dialog:modal'); const el = window.__e2e.resolve(r);
return !!(d && el && !d.contains(el)); }`, ref); err != nil {
		t.Fatal(err)
	}
	return inert
}
