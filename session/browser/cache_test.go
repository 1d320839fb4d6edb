package browser

import (
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
)

// menuIn returns the ref of the Menu button in the row whose first cell is name.
func menuIn(t *testing.T, p *Page, name string) string {
	t.Helper()
	var ref string
	snap(t, p, SnapshotOptions{}).Walk(func(n *ax.Node, anc []*ax.Node) bool {
		if n.Role == "button" && len(anc) > 1 {
			for _, a := range anc {
				if a.Role == "row" && strings.HasPrefix(a.Name, name+" ") {
					ref = n.Ref
				}
			}
		}
		return ref == ""
	})
	if ref == "" {
		t.Fatalf("no menu button in the %s row", name)
	}
	return ref
}

func TestCaptureAndResolve(t *testing.T) {
	p := newPage(t)
	base := fixtureURL(t)
	open(t, p, base+"/users")
	sels, node, err := p.CaptureElement(ctxT(t), menuIn(t, p, "Alice"), nil)
	must(t, err)
	if len(sels) < 2 || node.Role != "button" || node.Name != "Menu" || node.Tag != "button" {
		t.Fatalf("captured %+v %+v", sels, node)
	}
	kinds := map[string]bool{}
	for _, s := range sels {
		kinds[s.Kind] = true
	}
	if !kinds["structural"] {
		t.Errorf("no structural selector: %+v", sels)
	}
	// Replayed on the same page, every selector agrees.
	r, err := p.ResolveCached(ctxT(t), sels)
	must(t, err)
	if r.Reason != "" || r.Votes != len(sels) || r.Node.Name != "Menu" {
		t.Fatalf("resolved %+v", r)
	}
	var row *ax.Node
	for _, a := range r.Ancestors {
		if a.Role == "row" {
			row = a
		}
	}
	if row == nil || !strings.HasPrefix(row.Name, "Alice ") {
		t.Fatalf("ancestors %+v", r.Ancestors)
	}
	must(t, p.Click(ctxT(t), r.Ref, ActOptions{}))

	// random-attrs: ids and classes change, the cache does not notice.
	open(t, p, fixtureURL(t, "random-attrs")+"/product")
	sels, _, err = p.CaptureElement(ctxT(t), ref(t, p, "button", "Add to cart"), nil)
	must(t, err)
	for _, s := range sels {
		if strings.Contains(s.Value, "css-") || strings.Contains(s.Value, "#el-") {
			t.Errorf("random-looking selector kept: %+v", s)
		}
	}
	open(t, p, fixtureURL(t, "random-attrs")+"/product")
	r, err = p.ResolveCached(ctxT(t), sels)
	must(t, err)
	if r.Reason != "" || r.Node.Name != "Add to cart" {
		t.Fatalf("after a reload with new attributes: %+v", r)
	}

	// banned attributes are never used
	open(t, p, base+"/login")
	sels, node, err = p.CaptureElement(ctxT(t), ref(t, p, "textbox", "Email"), []string{"id", "name", "data-testid"})
	must(t, err)
	for _, s := range sels {
		if strings.Contains(s.Value, "#email") || strings.Contains(s.Value, "[name=") || strings.Contains(s.Value, "data-testid") {
			t.Errorf("banned attribute used: %+v", s)
		}
	}
	if _, ok := node.Attrs["id"]; ok {
		t.Errorf("banned attribute in node snapshot: %+v", node.Attrs)
	}
	// nothing matches on another page
	open(t, p, base+"/product")
	r, err = p.ResolveCached(ctxT(t), sels)
	must(t, err)
	if r.Reason != "no-match" {
		t.Errorf("on another page: %+v", r)
	}
}
