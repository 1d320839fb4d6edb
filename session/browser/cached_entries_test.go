package browser

import (
	"slices"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/fixture"
)

// TestResolveCachedAsTheSnapshot: on every zoo page and style, every
// control and every role-less entry (item, section) of the snapshot,
// captured and resolved again as a cache replay does, is the same element
// (in look-alike shadow roots too: a card per component), with the role the
// snapshot gives it, and with the entries around it, in order, among its
// ancestors: the intent check reads the containers the locator read.
func TestResolveCachedAsTheSnapshot(t *testing.T) {
	base := fixtureURL(t)
	for _, page := range []string{"tasks", "cards", "table", "settings"} {
		for _, style := range fixture.ZooStyles {
			t.Run(page+"/"+style, func(t *testing.T) {
				p := newPage(t)
				open(t, p, base+"/zoo/"+page+"?style="+style)
				s := snapshotT(t, p)
				type target struct {
					n       *ax.Node
					entries []string // the item and section ancestors' roles, outermost first
				}
				var targets []target
				s.Walk(func(n *ax.Node, anc []*ax.Node) bool {
					if n.Ref == "" || !(n.States.Interactive || n.Role == "item" || n.Role == "section") {
						return true
					}
					var es []string
					for _, a := range anc {
						if a.Role == "item" || a.Role == "section" {
							es = append(es, a.Role)
						}
					}
					targets = append(targets, target{n, es})
					return true
				})
				if len(targets) < 5 {
					t.Fatalf("%d targets", len(targets))
				}
				for _, tg := range targets {
					want := zooKey(t, p, tg.n.Ref)
					sels, _, err := p.CaptureElement(ctxT(t), tg.n.Ref, nil)
					if err != nil {
						t.Fatalf("capture %s: %v", tg.n.Line(), err)
					}
					if len(sels) == 0 {
						t.Errorf("%s: no selector", tg.n.Line())
						continue
					}
					r, err := p.ResolveCached(ctxT(t), sels)
					if err != nil {
						t.Fatalf("resolve %s: %v", tg.n.Line(), err)
					}
					if r.Reason != "" {
						t.Errorf("%s: resolved %s (%v)", tg.n.Line(), r.Reason, sels)
						continue
					}
					if got := zooKey(t, p, r.Ref); got != want {
						t.Errorf("%s (key %q): resolved to the element keyed %q (%v)", tg.n.Line(), want, got, sels)
						continue
					}
					if r.Node.Role != tg.n.Role {
						t.Errorf("%s: resolved with role %q", tg.n.Line(), r.Node.Role)
					}
					var got []string
					for _, a := range r.Ancestors {
						if a.Role == "item" || a.Role == "section" {
							got = append(got, a.Role)
						}
					}
					if !slices.Equal(got, tg.entries) {
						t.Errorf("%s (key %q): entries around it resolved as %v, the snapshot has %v", tg.n.Line(), want, got, tg.entries)
					}
				}
			})
		}
	}
}

// TestResolveCachedRowFirstCell: a row among a replayed element's
// ancestors carries its first cell's name, the one the snapshot's row has
// (the check reads where a row's name ends by it); never another cell's. On
// the light-DOM styles and /users every row carries it; where it is missing
// (a cell the script cannot reach) the row is judged by its name, as before.
// (divsoup has no rows.)
func TestResolveCachedRowFirstCell(t *testing.T) {
	base := fixtureURL(t)
	for _, url := range []string{"/users", "/zoo/table?style=semantic", "/zoo/table?style=divsoup", "/zoo/table?style=library", "/zoo/table?style=webcomponents"} {
		t.Run(url, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+url)
			s := snapshotT(t, p)
			checked := 0
			s.Walk(func(n *ax.Node, anc []*ax.Node) bool {
				if n.Ref == "" || !n.States.Interactive {
					return true
				}
				var row *ax.Node
				for _, a := range anc {
					if a.Role == "row" {
						row = a
					}
				}
				if row == nil {
					return true
				}
				want := ""
				for _, c := range row.Children {
					if c.Role == "cell" || c.Role == "gridcell" || c.Role == "rowheader" || c.Role == "columnheader" {
						want = c.Name
						break
					}
				}
				sels, _, err := p.CaptureElement(ctxT(t), n.Ref, nil)
				if err != nil || len(sels) == 0 {
					t.Fatalf("capture %s: %v %v", n.Line(), sels, err)
				}
				r, err := p.ResolveCached(ctxT(t), sels)
				if err != nil || r.Reason != "" {
					t.Fatalf("resolve %s: %v %+v", n.Line(), err, r)
				}
				got := ""
				for _, a := range r.Ancestors {
					if a.Role == "row" {
						for _, c := range a.Children {
							if c.Role == "cell" {
								got = c.Name
							}
						}
					}
				}
				switch {
				case got != "" && got != want:
					t.Errorf("%s: the replayed row's first cell is %q, the snapshot's %q", n.Line(), got, want)
				case got == "" && want != "" && !strings.Contains(url, "webcomponents"):
					t.Errorf("%s: the replayed row carries no first cell, the snapshot's is %q", n.Line(), want)
				case got != "":
					checked++
				}
				return true
			})
			t.Logf("%s: %d controls in rows carry their row's first cell", url, checked)
			if checked == 0 && !strings.Contains(url, "webcomponents") && !strings.Contains(url, "divsoup") { // divsoup has no rows
				t.Error("no control in a row")
			}
		})
	}
}
