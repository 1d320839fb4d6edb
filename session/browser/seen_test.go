package browser

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/fixture"
)

// zooKeyRefs snapshots p and maps the data-zoo-key of every node with a
// ref to that ref (the first node that carries a key wins).
func zooKeyRefs(t *testing.T, p *Page) map[string]string {
	t.Helper()
	s := snap(t, p, SnapshotOptions{})
	out := map[string]string{}
	for _, n := range s.Interactable() {
		k, ok, err := p.Attribute(ctxT(t), n.Ref, "data-zoo-key")
		if err != nil {
			t.Fatalf("%s: %v", n.Line(), err)
		}
		if _, seen := out[k]; ok && !seen {
			out[k] = n.Ref
		}
	}
	return out
}

// hidingCase is one button of /zoo/hiding: how it is hidden and what a
// person makes of it.
type hidingCase struct {
	key, technique string
	// inOutline: the snapshot still lists it (a person cannot see it, but
	// it is in the accessibility tree); then Seen and Click fail with
	// reason, naming detail (any of the words, separated by |).
	inOutline      bool
	reason, detail string
}

var hidingCases = []hidingCase{
	{"hiding:archive", "display: none", false, "", ""},
	{"hiding:rename", "visibility: hidden", false, "", ""},
	{"hiding:export", "zero size", true, ReasonHidden, "no size|clips it away"},
	{"hiding:share", "clipped by a parent", true, ReasonHidden, "clips it away"},
	{"hiding:print", "opacity 0", true, ReasonHidden, "opacity: 0"},
	{"hiding:copy", "offscreen", true, ReasonHidden, "outside the page"},
	{"hiding:pin", "covered", true, ReasonCovered, ""},
	{"hiding:move", "closed details", false, "", ""},
	{"hiding:merge", "inert", false, "", ""},
}

func matchesAny(s, alts string) bool {
	for a := range strings.SplitSeq(alts, "|") {
		if strings.Contains(s, a) {
			return true
		}
	}
	return false
}

// TestSeenAsAPersonDoes: on the hiding zoo in every style, the one button
// a person sees is seen and clicks; each of the nine hidden ones is either
// out of the outline (display, visibility, closed details, inert) or is
// judged not seen, with its reason, and a click on it fails with the same
// reason (covered stays its own reason) and does nothing.
func TestSeenAsAPersonDoes(t *testing.T) {
	base := fixtureURL(t)
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			parallel(t)
			p := newPage(t)
			open(t, p, base+"/zoo/hiding?style="+style)
			refs := zooKeyRefs(t, p)
			save, ok := refs["hiding:save"]
			if !ok {
				t.Fatalf("no Save button in the outline: %v", refs)
			}
			if e, err := p.Seen(ctxT(t), save); err != nil || e != nil {
				t.Fatalf("Save: seen %v, %v; want seen", e, err)
			}
			for _, c := range hidingCases {
				ref, ok := refs[c.key]
				if ok != c.inOutline {
					t.Errorf("%s (%s): in the outline %v, want %v", c.key, c.technique, ok, c.inOutline)
					continue
				}
				if !ok {
					continue
				}
				e, err := p.Seen(ctxT(t), ref)
				if err != nil {
					t.Fatal(err)
				}
				if e == nil || e.Reason != c.reason || !matchesAny(e.Detail, c.detail) {
					t.Errorf("%s (%s): Seen = %v, want %s with %q", c.key, c.technique, e, c.reason, c.detail)
				}
				err = p.Click(ctxT(t), ref, ActOptions{Timeout: 300 * time.Millisecond})
				ae, isAE := errors.AsType[*ActionError](err)
				if !isAE || ae.Reason != c.reason || !matchesAny(ae.Detail, c.detail) || (c.reason == ReasonCovered && ae.CoveredBy == "") {
					t.Errorf("%s (%s): click: %v, want %s with %q", c.key, c.technique, err, c.reason, c.detail)
				}
			}
			must(t, p.Click(ctxT(t), save, ActOptions{}))
			var status string
			must(t, p.Eval(ctxT(t), &status, `() => { const f = (r) => { for (const e of r.querySelectorAll('*')) { if (e.getAttribute('data-zoo-key') === 'hiding:status') return e.textContent; if (e.shadowRoot) { const x = f(e.shadowRoot); if (x !== null) return x; } } return null; }; return f(document); }`))
			if status != "Saved" {
				t.Errorf("status %q after the clicks, want Saved (a hidden button took a click)", status)
			}
		})
	}
}

// zooStatus reads the text of the element keyed key, through shadow roots.
func zooStatus(t *testing.T, p *Page, key string) string {
	t.Helper()
	var s string
	must(t, p.Eval(ctxT(t), &s, `(k) => { const f = (r) => { for (const e of r.querySelectorAll('*')) { if (e.getAttribute('data-zoo-key') === k) return e.textContent; if (e.shadowRoot) { const x = f(e.shadowRoot); if (x !== null) return x; } } return null; }; return f(document); }`, key))
	return s
}

// TestScrollBoxesAsAPersonDoes: on the scroll-box zoo in every style, a
// field the box starts with under its sticky header is scrolled out from
// under it and typed into; a button at the end of a box inside a box is
// scrolled to (both boxes and the page) and clicked; a field at the bottom
// is filled. A field and a button the header always lies over fail as
// covered, naming the header, and take no text and no click.
func TestScrollBoxesAsAPersonDoes(t *testing.T) {
	base := fixtureURL(t)
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			parallel(t)
			p := newPage(t)
			open(t, p, base+"/zoo/scroll?style="+style)
			refs := zooKeyRefs(t, p)
			for _, k := range []string{"scroll:subject", "scroll:restore", "scroll:reply", "scroll:filter", "scroll:select-all", "scroll:compose"} {
				if refs[k] == "" {
					t.Fatalf("no %s in the outline: %v", k, refs)
				}
			}
			ctx := ctxT(t)
			must(t, p.Type(ctx, refs["scroll:subject"], "Hello", ActOptions{}))
			if v, _ := p.Value(ctx, refs["scroll:subject"]); v != "Hello" {
				t.Errorf("Subject holds %q after typing Hello", v)
			}
			must(t, p.Click(ctx, refs["scroll:restore"], ActOptions{}))
			if s := zooStatus(t, p, "scroll:status"); s != "Restored 12 messages" {
				t.Errorf("status %q after Restore all", s)
			}
			must(t, p.Fill(ctx, refs["scroll:reply"], "Thanks", ActOptions{}))
			if v, _ := p.Value(ctx, refs["scroll:reply"]); v != "Thanks" {
				t.Errorf("Reply holds %q after filling Thanks", v)
			}
			must(t, p.Click(ctx, refs["scroll:compose"], ActOptions{}))
			if s := zooStatus(t, p, "scroll:status"); s != "Composing" {
				t.Errorf("status %q after Compose", s)
			}
			short := ActOptions{Timeout: 500 * time.Millisecond}
			for name, err := range map[string]error{
				"type into Filter": p.Type(ctx, refs["scroll:filter"], "x", short),
				"fill Filter":      p.Fill(ctx, refs["scroll:filter"], "x", short),
				"click Select all": p.Click(ctx, refs["scroll:select-all"], short),
			} {
				ae, ok := errors.AsType[*ActionError](err)
				if !ok || ae.Reason != ReasonCovered || !strings.Contains(ae.CoveredBy, "Message") {
					t.Errorf("%s: %v, want covered by the header", name, err)
				}
			}
			if v, _ := p.Value(ctx, refs["scroll:filter"]); v != "" {
				t.Errorf("Filter holds %q: the covered field took text", v)
			}
			if s := zooStatus(t, p, "scroll:status"); s != "Composing" {
				t.Errorf("status %q: the covered Select all took a click", s)
			}
			if e, err := p.Seen(ctx, refs["scroll:filter"]); err != nil || e == nil || e.Reason != ReasonCovered {
				t.Errorf("Filter: Seen = %v, %v; want covered", e, err)
			}
			if e, err := p.Seen(ctx, refs["scroll:subject"]); err != nil || e != nil {
				t.Errorf("Subject: Seen = %v, %v; want seen", e, err)
			}
		})
	}
}
