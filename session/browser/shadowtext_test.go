package browser

import (
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/fixture"
)

// shadowTwinHTML builds one tree twice: once with its parts in (nested) open
// shadow roots with a slot, once all in the light DOM, as rendered.
const shadowTwinHTML = `<!doctype html><body>
<div id=light></div><div id=shadow></div>
<script>
function part(kids) { return kids; }
function el(tag, attrs, kids) { const e = document.createElement(tag); for (const k in attrs || {}) e.setAttribute(k, attrs[k]); for (const c of kids || []) e.append(c); return e; }
function tree(which) {
  const shadow = which === 'shadow';
  const inner = () => [el('span', {}, ['deep ', el('b', {}, ['bold'])]), el('p', {}, ['a paragraph']), el('span', { style: 'display:none' }, ['not shown'])];
  const mid = (slotted) => [el('div', {}, ['Inner line']), shadow ? hostOf(inner(), 'section') : el('section', {}, inner()), el('div', {}, shadow ? [el('slot')] : slotted), el('span', {}, ['tail'])];
  const slotted = () => [el('em', {}, ['slotted text']), ' and more'];
  const host = shadow ? hostOf(mid(), 'div', slotted()) : el('div', {}, mid(slotted()));
  host.setAttribute('role', 'group'); host.setAttribute('aria-label', 'Host ' + which);
  return el('div', { role: 'group', 'aria-label': 'Card ' + which }, [el('h2', {}, ['Title']), el('p', {}, ['Para one']), host, el('div', {}, ['4 tasks remaining'])]);
}
function hostOf(kids, tag, light) {
  const h = el(tag, {}, light || []);
  h.attachShadow({ mode: 'open' }).append(...kids);
  return h;
}
document.getElementById('light').append(tree('light'));
document.getElementById('shadow').append(tree('shadow'));
</script>`

func refByName(t *testing.T, s *ax.Snapshot, role, name string) string {
	t.Helper()
	var ref string
	var walk func([]*ax.Node)
	walk = func(ns []*ax.Node) {
		for _, n := range ns {
			if n.Role == role && n.Name == name && ref == "" {
				ref = n.Ref
			}
			walk(n.Children)
		}
	}
	walk(s.Root)
	if ref == "" {
		t.Fatalf("no %s %q in the snapshot", role, name)
	}
	return ref
}

func textOfRef(t *testing.T, p *Page, method, ref string) string {
	t.Helper()
	var s *string
	if err := p.call(ctxT(t), &s, method, ref); err != nil {
		t.Fatal(err)
	}
	if s == nil {
		t.Fatalf("%s: %s is detached", method, ref)
	}
	return *s
}

// TestTextOfShadowRootsReadsAsLightDOM reads the text and the value of an
// element whose content is in nested open shadow roots (with a slot) and of
// its light-DOM twin: they read the same, and the light one reads as
// innerText and textContent do.
func TestTextOfShadowRootsReadsAsLightDOM(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, shadowTwinHTML))
	s, err := p.Snapshot(ctxT(t), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, what := range []string{"Card", "Host"} {
		light, shadow := refByName(t, s, "group", what+" light"), refByName(t, s, "group", what+" shadow")
		var inner, content string
		if err := p.Eval(ctxT(t), &inner, `(ref) => window.__e2e.resolve(ref).innerText`, light); err != nil {
			t.Fatal(err)
		}
		if err := p.Eval(ctxT(t), &content, `(ref) => window.__e2e.resolve(ref).textContent`, light); err != nil {
			t.Fatal(err)
		}
		if got := textOfRef(t, p, "textOf", light); got != inner {
			t.Errorf("%s light: textOf %q, innerText %q", what, got, inner)
		}
		if got := textOfRef(t, p, "textOf", shadow); got != inner {
			t.Errorf("%s shadow: textOf %q, want the light twin's %q", what, got, inner)
		}
		if got := textOfRef(t, p, "valueOf", light); got != content {
			t.Errorf("%s light: valueOf %q, textContent %q", what, got, content)
		}
		if got, want := strings.Join(strings.Fields(textOfRef(t, p, "valueOf", shadow)), " "), strings.Join(strings.Fields(content), " "); got != want {
			t.Errorf("%s shadow: valueOf %q, want the light twin's %q", what, got, want)
		}
	}
}

// TestTextOfZooTasks reads the task list's main landmark on the light-DOM
// and the web-components styles: both read the remaining count and every
// item, each on its own line.
func TestTextOfZooTasks(t *testing.T) {
	base := fixtureURL(t)
	for _, style := range []string{"semantic", "webcomponents"} {
		p := newPage(t)
		open(t, p, base+"/zoo/tasks?style="+style)
		s, err := p.Snapshot(ctxT(t), SnapshotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := textOfRef(t, p, "textOf", refByName(t, s, "main", ""))
		lines := strings.Split(got, "\n")
		for _, want := range []string{"Tasks", "oat milk", "oat milk and honey", "bread", "eggs", "4 tasks remaining"} {
			found := false
			for _, l := range lines {
				found = found || strings.TrimSpace(l) == want
			}
			if !found {
				t.Errorf("%s: no line %q in the main landmark's text %q", style, want, got)
			}
		}
	}
	_ = fixture.ZooStyles
}

// TestResolveCachedShadowHostText replays the cache entry of a shadow host
// and of its light-DOM twin: the node comes back with the same text.
func TestResolveCachedShadowHostText(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, shadowTwinHTML))
	s, err := p.Snapshot(ctxT(t), SnapshotOptions{})
	must(t, err)
	texts := map[string]string{}
	for _, which := range []string{"light", "shadow"} {
		sels, _, err := p.CaptureElement(ctxT(t), refByName(t, s, "group", "Host "+which), nil)
		must(t, err)
		r, err := p.ResolveCached(ctxT(t), sels)
		must(t, err)
		if r.Node == nil || len(r.Node.Children) != 1 {
			t.Fatalf("%s: resolved %+v", which, r.Node)
		}
		texts[which] = r.Node.Children[0].Text
	}
	if texts["light"] != texts["shadow"] || !strings.Contains(texts["light"], "deep bold") {
		t.Errorf("resolved text: light %q, shadow %q", texts["light"], texts["shadow"])
	}
}
