package browser

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/fixture"
	"github.com/e2e-dev/e2e/session/locate"
)

// The secondary-evidence tests read the zoo pages the way the locator does:
// a real snapshot, a plain description, the local locator. They check the
// element picked in the page itself (the text of the row it sits in, its
// state after a click), never by the snapshot's own words.

// rowText is the text of the nearest ancestor of the element behind ref
// (through shadow roots) that shows any text: the item or row it sits in.
func rowText(t *testing.T, p *Page, ref string) string {
	t.Helper()
	var s string
	const js = `(ref) => {
		for (let e = window.__e2e.resolve(ref); e; e = e.parentElement || (e.getRootNode().host) || null) {
			const t = (e.innerText || '').trim();
			if (t) return t.replace(/\s+/g, ' ');
		}
		return '';
	}`
	if err := p.Eval(ctxT(t), &s, js, ref); err != nil {
		t.Fatal(err)
	}
	return s
}

// hoverRow moves the mouse over the item showing text and waits until a
// button shows in the zoo (the row's hover-only delete button).
func hoverRow(t *testing.T, d zooDriver, text string) {
	t.Helper()
	b := d.text(text)
	d.move(b.X+b.W/2, b.cy())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		var n int
		zooEval(t, d.p, &n, `return deepAll(zoo, el => el.localName === 'button' && visible(el)).length;`)
		if n > 0 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no button shows while the mouse is over %q", text)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func snapshotT(t *testing.T, p *Page) *ax.Snapshot {
	t.Helper()
	s, err := p.Snapshot(ctxT(t), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestHintOnZooTasks: on every style of the task list, the hover-only
// delete button, the item checkboxes and the toggle-all checkbox are found
// by plain descriptions, by name where the style gives one and by
// secondary evidence where it does not; where a style gives no clue the
// locator finds nothing rather than something else.
func TestHintOnZooTasks(t *testing.T) {
	base := fixtureURL(t)
	// must: the styles where the description must resolve (the others
	// must not resolve to anything else).
	must := map[string][]string{
		"the Delete button in the oat milk item":       {"semantic", "library", "webcomponents"},
		"click the remove button in the oat milk item": {"library"},
		"the oat milk checkbox":                        {"semantic", "divsoup", "library"},
		"the oat milk and honey checkbox":              {"semantic", "divsoup", "library"},
		"the Mark all as complete checkbox":            {"semantic", "divsoup", "library", "webcomponents"},
	}
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+"/zoo/tasks?style="+style)
			d := zooDriver{t, p}
			hoverRow(t, d, "oat milk")
			s := snapshotT(t, p)
			outline := s.Text(ax.TextOptions{InteractiveOnly: true})
			chrome := chromeTree(t, p)
			for _, n := range s.Interactable() {
				if n.States.Hint != "" && strings.ContainsFunc(n.Name, wordRune) && !nameUnread(t, p, n.Ref) {
					t.Errorf("%s has a name and a hint; hints are for controls with no name or a wordless one, or a name nobody reads on screen", n.Line())
				}
				if n.States.HoverOnly {
					continue // not rendered, so not in Chrome's tree (the oracle test checks that)
				}
				// With the row hovered too, names are Chrome's.
				c := chrome[backendID(t, p, n.Ref)]
				if got := strings.Join(strings.Fields(c.name), " "); got != n.Name {
					t.Errorf("%s: Chrome names it %q", n.Line(), got)
				}
			}
			check := func(desc, wantRow string, isButton bool) {
				t.Helper()
				r := locate.Locate(s, desc)
				if r.Target == nil {
					for _, st := range must[desc] {
						if st == style {
							t.Errorf("Locate(%q) found nothing (%s: %s)\n%s", desc, r.Reason, r.Detail, outline)
						}
					}
					return
				}
				n := r.Target.Node
				if got := rowText(t, p, n.Ref); got != wantRow {
					t.Errorf("Locate(%q) = %s in a row reading %q, want the %q row\n%s", desc, n.Line(), got, wantRow, outline)
				}
				if isButton != (n.Role == "button") {
					t.Errorf("Locate(%q) = %s", desc, n.Line())
				}
			}
			check("the Delete button in the oat milk item", "oat milk", true)
			check("click the remove button in the oat milk item", "oat milk", true)
			check("the oat milk checkbox", "oat milk", false)
			check("the oat milk and honey checkbox", "oat milk and honey", false)

			// The toggle-all checkbox: clicking what was found completes
			// every task.
			r := locate.Locate(s, "the Mark all as complete checkbox")
			if r.Target == nil {
				t.Fatalf("Locate(the Mark all as complete checkbox) found nothing (%s)\n%s", r.Detail, outline)
			}
			if err := p.Click(ctxT(t), r.Target.Node.Ref, ActOptions{}); err != nil {
				t.Fatal(err)
			}
			d.wantScreen("all completed", zooTasksScreen([]string{"oat milk", "oat milk and honey", "bread", "eggs"}, 0)...)
		})
	}
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// TestHintOnZooSettings: a switch whose text is a sibling (library) and a
// select whose label is a sibling not tied by for= (divsoup, library) are
// found by that text; the accessible names stay empty.
func TestHintOnZooSettings(t *testing.T) {
	base := fixtureURL(t)
	for _, c := range []struct {
		style, desc, role string
	}{
		{"library", "the Dark mode switch", "switch"},
		{"library", "the Language dropdown", "combobox"},
		{"divsoup", "the Language dropdown", "combobox"},
		{"semantic", "the Dark mode switch", "switch"},
		{"webcomponents", "the Dark mode switch", "switch"},
	} {
		t.Run(c.style+" "+c.desc, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+"/zoo/settings?style="+c.style)
			s := snapshotT(t, p)
			r := locate.Locate(s, c.desc)
			if r.Target == nil {
				t.Fatalf("Locate(%q) found nothing (%s)\n%s", c.desc, r.Detail, s.Text(ax.TextOptions{InteractiveOnly: true}))
			}
			n := r.Target.Node
			if n.Role != c.role {
				t.Fatalf("Locate(%q) = %s, want a %s", c.desc, n.Line(), c.role)
			}
			if c.role == "switch" {
				if err := p.Click(ctxT(t), n.Ref, ActOptions{}); err != nil {
					t.Fatal(err)
				}
				after := snapshotT(t, p)
				r := locate.Locate(after, c.desc)
				if r.Target == nil || r.Target.Node.States.Checked != "true" {
					t.Errorf("after a click on %s, %q is %v", n.Line(), c.desc, r.Target)
				}
				return
			}
			if err := p.Click(ctxT(t), n.Ref, ActOptions{}); err != nil {
				t.Fatal(err)
			}
			if _, err := p.SelectOption(ctxT(t), n.Ref, []string{"Deutsch"}, ActOptions{}); err != nil {
				t.Fatal(err)
			}
			var lang string
			zooEval(t, p, &lang, `return deepAll(zoo, el => el.localName === 'select')[0].value;`)
			if lang != "de" {
				t.Errorf("the select found for %q holds %q after choosing Deutsch", c.desc, lang)
			}
		})
	}
}

// TestHintSources: each kind of secondary evidence reaches the hint of an
// unnamed control, generated class names and data-zoo* attributes never do,
// a named control gets none, and every name stays what Chrome computes
// (CSS generated content included).
func TestHintSources(t *testing.T) {
	const page = `<!doctype html><html><head><style>
.tick{appearance:none;width:20px;height:20px;border:1px solid} .tick::before{content:"\2713"} .x::after{content:"\00d7"} .fa-trash::before{content:"\f1f8"} .alt::before{content:"\2715" / "Dismiss"}
</style></head><body><main>
<button data-k="b1" class="css-1x2y3z sc-aBcD jss12 MuiIconButton-root destroy-item" data-zoo-key="zoo:secret-word"></button>
<button data-k="b2"><svg aria-hidden="true"><use href="#icon-trash"></use></svg></button>
<button data-k="b3" data-testid="edit-row"><i class="fa fa-pencil" aria-hidden="true"></i></button>
<button data-k="b4"><span aria-hidden="true" class="material-icons">more_vert</span></button>
<span aria-label="Close dialog"><button data-k="b5" class="x"></button></span>
<span title="Search everything"><button data-k="b6"><img src="/icons/magnifier.svg?v=2" alt=""></button></span>
<button data-k="b7" title="Remove">×</button>
<button data-k="b8"><i class="fa fa-trash" aria-hidden="true"></i><span data-icon="bin"></span></button>
<button data-k="b9" class="destroy">Delete</button>
<button data-k="b10" class="fa-trash"></button>
<button data-k="b11" class="alt"></button>
<div class="row"><input type="checkbox" data-k="c1"><label>Weekly digest</label></div>
<div class="row"><label>Full name</label><input type="text" data-k="t1"></div>
<div class="row"><input type="checkbox" data-k="c2"><label for="t9">Other field</label><input data-k="t9" id="t9"></div>
<div class="row"><div class="wrap"><input type="checkbox" data-k="c3"><span class="box"></span></div><div class="caption">Dark mode</div></div>
<div class="row"><input type="checkbox" data-k="c4"><button data-k="b12">Go</button><span>Not mine</span></div>
<div aria-label="Whole list"><li><button data-k="b13" class="kebab"></button></li></div>
<div class="row"><input type="checkbox" data-k="c5" class="tick"></div>
</main></body></html>`
	p := newPage(t)
	open(t, p, serveHTML(t, page))
	s := snapshotT(t, p)
	byKey := map[string]*ax.Node{}
	for _, n := range s.Interactable() {
		var k string
		if err := p.Eval(ctxT(t), &k, `(r) => window.__e2e.resolve(r).getAttribute('data-k')`, n.Ref); err != nil {
			t.Fatal(err)
		}
		byKey[k] = n
	}
	for k, want := range map[string][2]string{
		"b1":  {"", "destroy item"},
		"b2":  {"", "trash"},
		"b3":  {"", "pencil edit row"},
		"b4":  {"", "more_vert"},
		"b5":  {"×", "Close dialog · x"},
		"b6":  {"", "Search everything · magnifier"},
		"b7":  {"×", "Remove"},
		"b8":  {"", "trash bin"},
		"b9":  {"Delete", ""},
		"b10": {"\uf1f8", "trash"},
		"b11": {"Dismiss", ""},
		"b12": {"Go", ""},
		"c1":  {"", "Weekly digest"},
		"t1":  {"", "Full name"},
		"c2":  {"", ""},
		"c3":  {"", "Dark mode"},
		"c4":  {"", ""},
		"t9":  {"Other field", ""},
		"b13": {"", "kebab"},    // the list item stops the climb to the wrapper's label
		"c5":  {"", "✓ · tick"}, // a native checkbox takes no name from its ::before
	} {
		n := byKey[k]
		if n == nil {
			t.Errorf("%s is not in the snapshot", k)
			continue
		}
		if n.Name != want[0] || n.States.Hint != want[1] {
			t.Errorf("%s: %s, want name %q and hint %q", k, n.Line(), want[0], want[1])
		}
		if strings.Contains(n.States.Hint, "secret") || strings.Contains(n.States.Hint, "zoo") {
			t.Errorf("%s: the hint read a data-zoo attribute: %q", k, n.States.Hint)
		}
	}
	chrome := chromeTree(t, p)
	for k, n := range byKey {
		c := chrome[backendID(t, p, n.Ref)]
		if got := strings.Join(strings.Fields(c.name), " "); got != n.Name {
			t.Errorf("%s: name %q, Chrome says %q", k, n.Name, got)
		}
	}
}

// TestHintObeysTheTextCaps: a hint is cut by the per-field cap and by the
// snapshot's text budget as a value is, with the cut marker, and the
// locator does not read the cut part as whole.
func TestHintObeysTheTextCaps(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, `<main><p>A lead paragraph of some length to use up the budget first.</p>
<span title="Remove this entry from the list of entries for good"><button class="trash-can garbage-bin"></button></span></main>`))
	for _, o := range []SnapshotOptions{{MaxText: 30}, {MaxTotalText: 90}} {
		s, err := p.Snapshot(ctxT(t), o)
		if err != nil {
			t.Fatal(err)
		}
		var b *ax.Node
		for _, n := range s.Interactable() {
			if n.Role == "button" {
				b = n
			}
		}
		if b == nil {
			t.Fatalf("%+v: no button in\n%s", o, s.Text(ax.TextOptions{}))
		}
		kept, _, ok := ax.CutPrefix(b.States.Hint)
		if !ok || !b.Cut || !strings.HasPrefix("Remove this entry from the list of entries for good · trash can garbage bin", kept) {
			t.Errorf("%+v: %s, want the hint cut with its marker", o, b.Line())
		}
		if r := locate.Locate(s, "the Remove this entry from the list of entries for good button"); r.Target != nil && o.MaxText == 30 {
			t.Errorf("%+v: a cut hint matched a whole phrase: %s", o, r.Target.Node.Line())
		}
	}
}

// nameUnread says the element behind ref is a checkbox, radio or switch
// input named only by labels that draw no text a person can read (at
// font-size 0, or clipped to a pixel): a name nobody reads on screen, which
// leaves it a hint as a weak name does.
func nameUnread(t *testing.T, p *Page, ref string) bool {
	t.Helper()
	var ok bool
	must(t, p.Eval(ctxT(t), &ok, `(ref) => {
  const el = window.__e2e.resolve(ref);
  if (!el || el.localName !== 'input' || !el.labels || !el.labels.length || el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby')) return false;
  return [...el.labels].every((l) => {
    const cs = getComputedStyle(l), r = l.getBoundingClientRect();
    return cs.fontSize === '0px' || (cs.overflow === 'hidden' && (r.width <= 1 || r.height <= 1));
  });
}`, ref))
	return ok
}
