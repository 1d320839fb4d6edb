package browser

import (
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/fixture"
	"github.com/e2e-dev/e2e/session/locate"
)

// The zoo's task list read by the local locator on a real snapshot: text
// runs carry their owner element's ref and box, so that they can be found,
// read, used as landmarks and acted on (issue 13 item 1). What each
// description found is checked in the page, through shadow roots: the
// element, its own text, and the item its row shows.
func TestTextRunsAreTargetsOnTheZoo(t *testing.T) {
	base := fixtureURL(t)
	const whatIs = `(ref) => {
  const el = window.__e2e.resolve(ref);
  if (!el) return { tag: 'NONE' };
  // row: the text of the nearest composed ancestor with any text
  let row = '';
  for (let a = el; a && !row; a = a.parentElement || (a.getRootNode().host) || null) {
    row = (a.textContent || '').replace(/\s+/g, ' ').trim();
  }
  return { tag: el.localName, type: el.type || '', text: (el.textContent || '').replace(/\s+/g, ' ').trim(), row };
}`
	type what struct{ Tag, Type, Text, Row string }
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+"/zoo/tasks?style="+style)
			plain, boxed := snap(t, p, SnapshotOptions{}), snap(t, p, SnapshotOptions{TextBoxes: true})
			find := func(desc string) (what, *ax.Node) {
				t.Helper()
				s := plain
				if locate.Positional(desc) {
					s = boxed // placing against text needs its boxes
				}
				r := locate.Locate(s, desc)
				if r.Target == nil {
					t.Fatalf("%s: %s\n%s", desc, r.Detail, s.Text(ax.TextOptions{}))
				}
				var w what
				if err := p.Eval(ctxT(t), &w, whatIs, r.Target.Node.Ref); err != nil {
					t.Fatal(err)
				}
				return w, r.Target.Node
			}
			for _, desc := range []string{"the tasks remaining counter", `the "4 tasks remaining" text`} {
				if w, _ := find(desc); w.Text != "4 tasks remaining" {
					t.Errorf("%s: found %+v, want the element that reads 4 tasks remaining", desc, w)
				}
			}
			for _, item := range []string{"oat milk", "oat milk and honey", "bread", "eggs"} {
				if w, n := find("the " + item + " label"); w.Text != item || n.Box != nil {
					t.Errorf("the %s label: found %+v (box %+v), want the element that reads %s, without a box", item, w, n.Box, item)
				}
				if w, _ := find("the checkbox next to " + item); w.Type != "checkbox" || w.Row != item {
					t.Errorf("the checkbox next to %s: found %+v, want the checkbox in its row", item, w)
				}
			}
			// Text boxes, when asked for, are the owner's.
			boxes := 0
			boxed.Walk(func(n *ax.Node, _ []*ax.Node) bool {
				if n.Role == "text" && n.Ref != "" {
					if n.Box == nil || n.Box.W < 1 || n.Box.H < 1 {
						t.Errorf("text %q has no box: %+v", n.Text, n.Box)
					}
					boxes++
				}
				return true
			})
			if boxes < 5 {
				t.Errorf("%d text runs with a box, want the items and the counter", boxes)
			}
			// Acting on text: a double-click on the label edits the item.
			_, n := find("double click the oat milk label")
			if err := p.DoubleClick(ctxT(t), n.Ref, ActOptions{}); err != nil {
				t.Fatal(err)
			}
			var ed struct{ Tag, Value string }
			zooEval(t, p, &ed, `const f = focused(); return { tag: f ? f.tagName : '', value: f ? f.value || '' : '' };`)
			if ed.Tag != "INPUT" || ed.Value != "oat milk" {
				t.Errorf("after double-clicking the label the focus is on %s %q, want the editor of oat milk", ed.Tag, ed.Value)
			}
		})
	}
}

// A text run's ref stays while its element lives, whatever its text says;
// the cached element of a text target resolves as text, under that ref.
func TestTextRunRefsAndCache(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/zoo/tasks?style=divsoup")
	s1 := snap(t, p, SnapshotOptions{})
	r := locate.Locate(s1, "the tasks remaining counter")
	if r.Target == nil {
		t.Fatal(r.Detail)
	}
	ref := r.Target.Node.Ref
	sels, _, err := p.CaptureElement(ctxT(t), ref, nil)
	if err != nil || len(sels) == 0 {
		t.Fatalf("capture: %v %v", sels, err)
	}
	zooEval(t, p, nil, `deepAll(zoo, el => el.type === 'checkbox')[3].click();`) // bread: 3 left
	if _, err := p.Settle(ctxT(t), SettleOptions{}); err != nil {
		t.Fatal(err)
	}
	s2 := snap(t, p, SnapshotOptions{})
	var now *ax.Node
	s2.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "text" && n.Text == "3 tasks remaining" {
			now = n
		}
		return true
	})
	if now == nil {
		t.Fatalf("no counter after the change:\n%s", s2.Text(ax.TextOptions{}))
	}
	// The page re-renders: the counter is a new element, which the cached
	// selectors find, as text, under the ref the snapshot gave it.
	res, err := p.ResolveCached(ctxT(t), sels)
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason != "" || res.Ref != now.Ref || res.Node.Role != "text" {
		t.Fatalf("resolved %+v (node %+v), want the counter %s as text", res, res.Node, now.Ref)
	}
	if ok, why := locate.Check(s2, now, nil, r.Intent); !ok {
		t.Errorf("the counter no longer meets the intent: %s", why)
	}
	// Refs of text runs are stable across snapshots of an unchanged page.
	if a, b := textRefs(s2), textRefs(snap(t, p, SnapshotOptions{})); len(a) == 0 || !equalStrings(a, b) {
		t.Errorf("text refs changed between two snapshots: %v, %v", a, b)
	}
}

func textRefs(s *ax.Snapshot) []string {
	var out []string
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "text" {
			out = append(out, n.Ref+" "+n.Text)
		}
		return true
	})
	return out
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
