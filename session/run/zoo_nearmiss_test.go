package run

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/fixture"
	"github.com/e2e-dev/e2e/session/locate"
)

// Near misses: descriptions that almost fit another element. Each zoo page
// has a table of rows in a file of its own (zoo_nearmiss_<page>_test.go);
// zooNearMiss snapshots the page in real Chromium, asks the local locator
// and checks the element it picked against the page's data-zoo-key ground
// truth. A row wants one element (its key), ambiguity, or no pick at all
// (the description names nothing on the page); a pick of any other element
// fails, and so does no answer for a row that wants one, unless the row is
// marked as a known gap: then no answer is logged, and a wrong pick still
// fails.

// nearMissAmbiguous is the Want of a row whose description fits several
// elements equally: the locator must say so, never pick one.
const nearMissAmbiguous = "ambiguous"

// nearMissNone is the Want of a row whose description names nothing on the
// page ("the Close button" with the dialog closed): not found and ambiguity
// both pass, any pick is a wrong element.
const nearMissNone = "none"

// nearMiss is one row of a near-miss table.
type nearMiss struct {
	Style string // one of fixture.ZooStyles, "" for every style
	// Prep, when set, is a function body run in the page before the
	// snapshot (it may use the helpers in nearMissJS), to set up the state
	// the description is a near miss in.
	Prep string
	Desc string
	Want string // a data-zoo-key, nearMissAmbiguous or nearMissNone
	// Gap, when set, names the styles where the local locator cannot find
	// the element the row wants, and why: "divsoup: no clue", "divsoup,
	// library: …", "all: …". In those styles not found or ambiguity is
	// reported, not failed; a wrong pick still fails.
	Gap string
}

// gap returns why the row is a known gap in style, "" when it is not one.
func (r nearMiss) gap(style string) string {
	styles, why, ok := strings.Cut(r.Gap, ":")
	if !ok {
		return ""
	}
	for _, s := range strings.Split(styles, ",") {
		if s = strings.TrimSpace(s); s == style || s == "all" {
			return strings.TrimSpace(why)
		}
	}
	return ""
}

// nearMissJS are page helpers for Prep; they look through open shadow roots
// and act through the page's own listeners, as the zoo's renderers attach them.
const nearMissJS = `
function deepAll(node, pred, out) {
  out = out || [];
  for (const el of node.querySelectorAll('*')) {
    if (pred(el)) out.push(el);
    if (el.shadowRoot) deepAll(el.shadowRoot, pred, out);
  }
  return out;
}
// zooEl is the innermost element carrying the ground-truth key k (where a
// control is a wrapper and its button, or a host and its inner element,
// the button or the inner element).
function zooEl(k) {
  const all = deepAll(document, el => el.getAttribute('data-zoo-key') === k);
  if (!all.length) throw new Error('no element ' + k);
  return all[all.length - 1];
}
// zooOuter is the outermost element carrying the key k.
function zooOuter(k) {
  const all = deepAll(document, el => el.getAttribute('data-zoo-key') === k);
  if (!all.length) throw new Error('no element ' + k);
  return all[0];
}
// clickKey clicks the element whose ground-truth key is k.
function clickKey(k) { zooEl(k).click(); }
// enterKey types text into the field whose key is k and presses Enter.
function enterKey(k, text) {
  const f = zooEl(k);
  f.value = text;
  f.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
}
// addClickable puts a role-less clickable reading text (a div with a
// pointer cursor and a click listener, classes only) after the element
// whose key is k, with ground-truth key key; plain, it is text with no
// cursor and no listener.
function addClickable(k, text, key, plain) {
  const d = document.createElement('div');
  d.textContent = text;
  d.setAttribute('data-zoo-key', key);
  d.setAttribute('class', 'trap');
  if (!plain) { d.style.cursor = 'pointer'; d.addEventListener('click', () => {}); }
  zooOuter(k).after(d);
  return d;
}
// addUserMenu lays a role-less menu over the page's top right corner (a
// div classed "user-menu", position absolute; key trap:user-menu) holding
// a clickable "Delete account" (trap:delete-account) and a text "Signed in
// as Ann".
function addUserMenu() {
  const m = document.createElement('div');
  m.setAttribute('class', 'user-menu');
  m.setAttribute('data-zoo-key', 'trap:user-menu');
  m.style.cssText = 'position:absolute;top:4px;right:4px;background:#fff;border:1px solid #ccc;padding:4px';
  const who = document.createElement('div');
  who.textContent = 'Signed in as Ann';
  const del = document.createElement('div');
  del.textContent = 'Delete account';
  del.setAttribute('data-zoo-key', 'trap:delete-account');
  del.style.cursor = 'pointer';
  del.addEventListener('click', () => {});
  m.append(who, del);
  document.body.append(m);
  return m;
}
// addCards puts two cards after the element whose key is k, each holding
// a clickable "Delete" (keys trap:delete:<name>); named, they are
// <article>s labelled by name, else role-less divs.
function addCards(k, names, named) {
  let at = zooOuter(k);
  for (const n of names) {
    const c = document.createElement(named ? 'article' : 'div');
    if (named) c.setAttribute('aria-label', n);
    c.setAttribute('class', 'trap-card');
    const del = document.createElement('div');
    del.textContent = 'Delete';
    del.style.cursor = 'pointer';
    del.addEventListener('click', () => {});
    del.setAttribute('data-zoo-key', 'trap:delete:' + n);
    c.append(del);
    at.after(c);
    at = c;
  }
}
// addTask adds a task through the new-task field, as Enter does.
function addTask(text) {
  const f = deepAll(document, el => el.placeholder === 'What needs to be done?')[0];
  f.value = text;
  f.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
}
`

// nearMissOutcome is what the locator answered for one row.
type nearMissOutcome struct {
	Answer string // the key picked, nearMissAmbiguous, or "not found"
	Picked string // the snapshot line of the pick
	Detail string
}

// zooNearMiss runs the rows against /zoo/<page> in every style they name.
func zooNearMiss(t *testing.T, page string, rows []nearMiss) {
	t.Helper()
	srv := httptest.NewServer(fixture.Handler(fixture.Options{}))
	t.Cleanup(srv.Close)
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			// one page per Prep: rows with the same state share a snapshot
			byPrep := map[string][]nearMiss{}
			var order []string
			for _, r := range rows {
				if r.Style != "" && r.Style != style {
					continue
				}
				if _, ok := byPrep[r.Prep]; !ok {
					order = append(order, r.Prep)
				}
				byPrep[r.Prep] = append(byPrep[r.Prep], r)
			}
			var n, pass, gaps, wrong int
			for _, prep := range order {
				p, snap := nearMissPage(t, srv.URL+"/zoo/"+page+"?style="+style, prep)
				for _, r := range byPrep[prep] {
					n++
					msg := nearMissVerdict(r, nearMissLocate(t, p, snap, r.Desc))
					switch {
					case msg == "":
						pass++
						if g := r.gap(style); g != "" {
							t.Logf("%q: passes; its known gap (%s) can go", r.Desc, g)
						}
					case strings.Contains(msg, "WRONG ELEMENT"):
						wrong++
						t.Error(msg)
					case r.gap(style) != "":
						gaps++
						t.Logf("known gap (%s): %s", r.gap(style), msg)
					default:
						t.Error(msg)
					}
				}
			}
			t.Logf("near misses on %s/%s: %d rows, %d pass, %d known gaps, %d wrong, %d other failures", page, style, n, pass, gaps, wrong, n-pass-gaps-wrong)
		})
	}
}

// nearMissVerdict says why a row's answer is not what it wants ("" when
// it is); a pick of another element is called out as a wrong element.
func nearMissVerdict(r nearMiss, got nearMissOutcome) string {
	state := ""
	if r.Prep != "" {
		state = " (after " + r.Prep + ")"
	}
	switch {
	case got.Answer == r.Want:
		return ""
	case r.Want == nearMissNone && (got.Answer == "not found" || got.Answer == nearMissAmbiguous):
		return ""
	case r.Want == nearMissNone:
		return fmt.Sprintf("%q%s: WRONG ELEMENT: picked %s (%s), want no pick; %s", r.Desc, state, got.Answer, got.Picked, got.Detail)
	case got.Answer == "not found" || (got.Answer == nearMissAmbiguous && r.Want != nearMissAmbiguous):
		return fmt.Sprintf("%q%s: %s, want %s: %s", r.Desc, state, got.Answer, r.Want, got.Detail)
	default:
		return fmt.Sprintf("%q%s: WRONG ELEMENT: picked %s (%s), want %s; %s", r.Desc, state, got.Answer, got.Picked, r.Want, got.Detail)
	}
}

// nearMissPage opens url in a page of its own, runs prep and snapshots it.
func nearMissPage(t *testing.T, url, prep string) (*browser.Page, *ax.Snapshot) {
	t.Helper()
	browserTest(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := shared.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	if _, err := p.Navigate(ctx, url); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Settle(ctx, browser.SettleOptions{Quiet: 50 * time.Millisecond, Max: 2 * time.Second}); err != nil {
		t.Fatal(err)
	}
	if prep != "" {
		if err := p.Eval(ctx, nil, "() => {"+nearMissJS+prep+"}"); err != nil {
			t.Fatalf("prep %s: %v", prep, err)
		}
		if _, err := p.Settle(ctx, browser.SettleOptions{Quiet: 50 * time.Millisecond, Max: 2 * time.Second}); err != nil {
			t.Fatal(err)
		}
	}
	snap, err := p.Snapshot(ctx, browser.SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return p, snap
}

// nearMissLocate asks the local locator for desc and reads the ground truth
// of what it picked.
func nearMissLocate(t *testing.T, p *browser.Page, snap *ax.Snapshot, desc string) nearMissOutcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := locate.Local{}.Locate(ctx, snap, desc)
	if err != nil {
		t.Fatal(err)
	}
	if res.Target == nil {
		o := nearMissOutcome{Answer: "not found", Detail: res.Detail}
		if res.Reason == locate.ReasonAmbiguous {
			o.Answer = nearMissAmbiguous
		}
		if o.Detail == "" && len(res.Candidates) > 0 {
			o.Detail = fmt.Sprintf("nearest: %s (%.2f)", res.Candidates[0].Node.Line(), res.Candidates[0].Score)
		}
		return o
	}
	n := res.Target.Node
	o := nearMissOutcome{Picked: n.Line(), Detail: fmt.Sprintf("why %v", res.Target.Why)}
	if n.Ref == "" {
		o.Answer = "(a node with no ref)"
		return o
	}
	k, ok, err := p.Attribute(ctx, n.Ref, zooKeyAttr)
	switch {
	case err != nil:
		o.Answer = "(unreadable: " + err.Error() + ")"
	case !ok:
		o.Answer = "(an element with no " + zooKeyAttr + ")"
	default:
		o.Answer = k
	}
	return o
}

// TestNearMissGap: a row's gap holds in the styles it names only.
func TestNearMissGap(t *testing.T) {
	for _, c := range []struct{ gap, style, want string }{
		{"", "divsoup", ""},
		{"divsoup: no clue", "divsoup", "no clue"},
		{"divsoup: no clue", "library", ""},
		{"divsoup, library: no role", "library", "no role"},
		{"all: nothing", "semantic", "nothing"},
		{"no style named", "divsoup", ""},
	} {
		if got := (nearMiss{Gap: c.gap}).gap(c.style); got != c.want {
			t.Errorf("gap %q in %s = %q, want %q", c.gap, c.style, got, c.want)
		}
	}
}

// TestNearMissVerdict: every answer but the one a row wants fails it, and
// a pick of another element is called wrong.
func TestNearMissVerdict(t *testing.T) {
	for _, c := range []struct {
		want, answer string
		fails        bool
	}{
		{"tasks:toggle:oat milk", "tasks:toggle:oat milk", false},
		{"tasks:toggle:oat milk", "tasks:toggle:oat milk and honey", true},
		{"tasks:toggle:oat milk", "not found", true},
		{"tasks:toggle:oat milk", nearMissAmbiguous, true},
		{"tasks:toggle:oat milk", "(an element with no data-zoo-key)", true},
		{nearMissAmbiguous, nearMissAmbiguous, false},
		{nearMissAmbiguous, "tasks:delete:bread", true},
		{nearMissAmbiguous, "not found", true},
		{nearMissNone, "not found", false},
		{nearMissNone, nearMissAmbiguous, false},
		{nearMissNone, "modal:save", true},
		{nearMissNone, "(an element with no data-zoo-key)", true},
	} {
		msg := nearMissVerdict(nearMiss{Desc: "d", Want: c.want}, nearMissOutcome{Answer: c.answer})
		if (msg != "") != c.fails {
			t.Errorf("want %q, answer %q: verdict %q, want failing %v", c.want, c.answer, msg, c.fails)
		}
		if wrong := c.fails && c.answer != "not found" && c.answer != nearMissAmbiguous; wrong != strings.Contains(msg, "WRONG ELEMENT") {
			t.Errorf("want %q, answer %q: verdict %q calls it wrong: %v", c.want, c.answer, msg, !wrong)
		}
	}
}
