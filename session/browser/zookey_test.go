package browser

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/fixture"
)

// zooPages are the zoo pages whose ground truth these tests read.
var zooPages = []string{"tasks", "settings"}

// TestAttributeReadsTheElementBehindARef reads data-zoo-key, the zoo's
// ground truth, through refs: the element a ref names, not a neighbour.
func TestAttributeReadsTheElementBehindARef(t *testing.T) {
	base := fixtureURL(t)
	p := newPage(t)
	open(t, p, base+"/zoo/tasks?style=semantic")
	s, err := p.Snapshot(ctxT(t), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{} // line → key
	for _, n := range s.Interactable() {
		v, ok, err := p.Attribute(ctxT(t), n.Ref, "data-zoo-key")
		if err != nil {
			t.Fatalf("%s: %v", n.Line(), err)
		}
		if ok {
			got[n.Line()] = v
		}
	}
	for line, want := range map[string]string{
		`checkbox "Mark all as complete"`: "tasks:toggle-all",
		`checkbox "oat milk"`:             "tasks:toggle:oat milk",
		`checkbox "oat milk and honey"`:   "tasks:toggle:oat milk and honey",
		`link "Active"`:                   "tasks:filter:active",
	} {
		found := false
		for l, k := range got {
			if strings.HasPrefix(l, line+" ") || l == line || strings.HasPrefix(l, line+"[") {
				found = true
				if k != want {
					t.Errorf("%s has key %q, want %q", l, k, want)
				}
			}
		}
		if !found {
			t.Errorf("no interactable %s in %v", line, got)
		}
	}
	// an attribute the element does not have, and a ref the page never gave
	ref := s.Interactable()[0].Ref
	if v, ok, err := p.Attribute(ctxT(t), ref, "data-no-such"); err != nil || ok || v != "" {
		t.Errorf("missing attribute: %q, %v, %v; want \"\", false, nil", v, ok, err)
	}
	_, _, err = p.Attribute(ctxT(t), "e99999999", "data-zoo-key")
	if ae, ok := errors.AsType[*ActionError](err); !ok || ae.Reason != ReasonDetached {
		t.Errorf("unknown ref: %v, want an ActionError (detached)", err)
	}
}

// TestSnapshotIgnoresZooKeys: the zoo's ground truth exists only for tests.
// Every zoo page in every style snapshots the same with and without its
// data-zoo-key attributes, and the page script never names data-zoo.
func TestSnapshotIgnoresZooKeys(t *testing.T) {
	if strings.Contains(strings.ToLower(pageJS), "data-zoo") {
		t.Fatal("page.js names data-zoo: the snapshot must never read data-zoo* attributes")
	}
	base := fixtureURL(t)
	for _, page := range zooPages {
		for _, style := range fixture.ZooStyles {
			t.Run(page+"/"+style, func(t *testing.T) {
				p := newPage(t)
				open(t, p, base+"/zoo/"+page+"?style="+style)
				snap := func() string {
					t.Helper()
					s, err := p.Snapshot(ctxT(t), SnapshotOptions{})
					if err != nil {
						t.Fatal(err)
					}
					b, err := json.Marshal(s.Root)
					if err != nil {
						t.Fatal(err)
					}
					return string(b)
				}
				with := snap()
				// nor does the element cache remember an element by its key
				s, err := p.Snapshot(ctxT(t), SnapshotOptions{})
				if err != nil {
					t.Fatal(err)
				}
				for _, n := range s.Interactable() {
					sels, node, err := p.CaptureElement(ctxT(t), n.Ref, nil)
					if err != nil {
						t.Fatalf("capture %s: %v", n.Line(), err)
					}
					b, _ := json.Marshal(struct {
						S any
						N any
					}{sels, node})
					if strings.Contains(string(b), "data-zoo") {
						t.Errorf("capture of %s holds its data-zoo-key: %s", n.Line(), b)
					}
				}
				var n int
				if err := p.Eval(ctxT(t), &n, `() => {
					let n = 0;
					const strip = (root) => { for (const el of root.querySelectorAll('*')) {
						if (el.hasAttribute('data-zoo-key')) { el.removeAttribute('data-zoo-key'); n++; }
						if (el.shadowRoot) strip(el.shadowRoot);
					} };
					strip(document);
					return n;
				}`); err != nil {
					t.Fatal(err)
				}
				if n < 5 {
					t.Fatalf("stripped %d data-zoo-key attributes, want the page's ground truth (≥ 5)", n)
				}
				if without := snap(); without != with {
					t.Errorf("the snapshot changes when data-zoo-key attributes go:\nwith:    %s\nwithout: %s", with, without)
				}
			})
		}
	}
}
