package browser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
)

// find returns the first node with role and name, failing the test if none.
func find(t *testing.T, s *ax.Snapshot, role, name string) *ax.Node {
	t.Helper()
	var hit *ax.Node
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if hit == nil && n.Role == role && n.Name == name {
			hit = n
		}
		return hit == nil
	})
	if hit == nil {
		t.Fatalf("no %s %q in snapshot:\n%s", role, name, s.Text(ax.TextOptions{}))
	}
	return hit
}

func snap(t *testing.T, p *Page, opts SnapshotOptions) *ax.Snapshot {
	t.Helper()
	s, err := p.Snapshot(ctxT(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSnapshotOutlineOfLogin(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/login")
	text := snap(t, p, SnapshotOptions{}).Text(ax.TextOptions{})
	for _, want := range []string{
		`- heading "Sign in" [level=1]`,
		`- textbox "Email" [ref=`,
		`- checkbox "Remember me" [checked=false] [ref=`,
		`- button "Sign in" [ref=`,
		`- link "Home" [url=/] [ref=`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("outline lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, `heading "Sign in" [level=1] [ref=`) {
		t.Error("a heading is not interactable and must not show a ref")
	}
}

func TestSnapshotHiddenFramesShadowAndStates(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/a11y")
	s := snap(t, p, SnapshotOptions{})
	text := s.Text(ax.TextOptions{})
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if strings.HasPrefix(n.Name, "Hidden by") {
			t.Errorf("hidden element in the snapshot: %s", n.Line())
		}
		return true
	})
	if !strings.Contains(text, `button "Zero size button"`) {
		t.Error("a zero-size button stays in the tree (as in Chrome's)")
	}
	frame := find(t, s, "iframe", "Embedded form")
	if len(frame.Children) == 0 {
		t.Error("same-origin iframe content is missing")
	}
	find(t, s, "button", "Frame button")
	find(t, s, "button", "Shadow button")
	find(t, s, "textbox", "Shadow field")
	if n := find(t, s, "checkbox", "Accept terms"); n.States.Checked != "true" {
		t.Errorf("checked: got %q", n.States.Checked)
	}
	if n := find(t, s, "button", "Disabled button"); !n.States.Disabled {
		t.Error("disabled state missing")
	}
	if n := find(t, s, "button", "Bold"); n.States.Pressed != "true" {
		t.Error("pressed state missing")
	}
	if n := find(t, s, "button", "Show details"); n.States.Expanded != "false" {
		t.Error("expanded state missing")
	}
	if n := find(t, s, "tab", "Overview"); !n.States.Selected {
		t.Error("selected state missing")
	}
	if n := find(t, s, "textbox", "Greeting"); n.States.Value != "Hello world" {
		t.Errorf("value: got %q", n.States.Value)
	}
	if n := find(t, s, "link", "Read the docs"); n.States.URL != "/a11y#docs" {
		t.Errorf("url: got %q", n.States.URL)
	}
	if n := find(t, s, "heading", "Accessible names"); n.States.Level != 1 {
		t.Errorf("level: got %d", n.States.Level)
	}
}

func TestSnapshotRefsStableWhileRoleAndNameHold(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/product")
	s1 := snap(t, p, SnapshotOptions{})
	s2 := snap(t, p, SnapshotOptions{})
	if a, b := s1.Text(ax.TextOptions{}), s2.Text(ax.TextOptions{}); a != b {
		t.Fatalf("two snapshots of an unchanged page differ:\n%s\n---\n%s", a, b)
	}
	add := find(t, s1, "button", "Add to cart")
	// Renaming an element gives it a new ref; the others keep theirs.
	if err := p.Eval(ctxT(t), nil, `() => { for (const b of document.querySelectorAll('button')) if (b.textContent.trim() === 'Buy now') b.textContent = 'Buy it now'; }`); err != nil {
		t.Fatal(err)
	}
	s3 := snap(t, p, SnapshotOptions{})
	if got := find(t, s3, "button", "Add to cart").Ref; got != add.Ref {
		t.Errorf("Add to cart ref changed from %s to %s", add.Ref, got)
	}
	if find(t, s3, "button", "Buy it now").Ref == find(t, s1, "button", "Buy now").Ref {
		t.Error("a renamed element kept its ref")
	}
}

func TestSnapshotCapAndScope(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/rows?n=300")
	full := snap(t, p, SnapshotOptions{})
	capped := snap(t, p, SnapshotOptions{MaxNodes: 100})
	if capped.Shown > 100 || capped.Total != full.Total {
		t.Errorf("capped: shown %d total %d, full total %d", capped.Shown, capped.Total, full.Total)
	}
	text := capped.Text(ax.TextOptions{})
	if !strings.Contains(text, " more") {
		t.Errorf("capped outline has no '… N more' marker:\n%s", text)
	}
	row := find(t, full, "row", "Item 250 SKU-00250 "+rowQty(t, full, "Item 250")+" Delete")
	scoped := snap(t, p, SnapshotOptions{Scope: row.Ref})
	if len(scoped.Root) != 1 || scoped.Root[0].Ref != row.Ref {
		t.Fatalf("scoped snapshot root: %+v", scoped.Root)
	}
	if _, err := p.Snapshot(ctxT(t), SnapshotOptions{Scope: "e999999"}); err == nil || !strings.Contains(err.Error(), "e999999") {
		t.Errorf("unknown scope ref: got %v", err)
	}
}

// rowQty reads the quantity cell of the named row from the snapshot.
func rowQty(t *testing.T, s *ax.Snapshot, item string) string {
	t.Helper()
	var qty string
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "row" && strings.HasPrefix(n.Name, item+" ") && len(n.Children) >= 3 {
			qty = n.Children[2].Name
		}
		return qty == ""
	})
	return qty
}

func TestSnapshotNeverShowsPasswordValues(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/login")
	s := snap(t, p, SnapshotOptions{})
	pw := find(t, s, "textbox", "Password")
	if err := p.Fill(ctxT(t), pw.Ref, "correct-horse", ActOptions{}); err != nil {
		t.Fatal(err)
	}
	s = snap(t, p, SnapshotOptions{})
	pw = find(t, s, "textbox", "Password")
	text := s.Text(ax.TextOptions{})
	if strings.Contains(text, `value="correct-horse"`) || pw.States.Value != "" {
		t.Errorf("password value in snapshot:\n%s", text)
	}
}

// TestIncrementalSnapshotsMatchFullOnes: a snapshot sent as a change to the
// last one decodes to exactly what a full snapshot gives, through clicks,
// typing, removals and navigations.
func TestIncrementalSnapshotsMatchFullOnes(t *testing.T) {
	p := newPage(t)
	base := fixtureURL(t)
	check := func(when string) {
		t.Helper()
		settle(t, p)
		inc := snap(t, p, SnapshotOptions{Boxes: true})
		full := snap(t, p, SnapshotOptions{Boxes: true, full: true})
		if a, b := inc.Text(ax.TextOptions{}), full.Text(ax.TextOptions{}); a != b {
			t.Fatalf("%s: incremental and full snapshots differ:\n%s\n---\n%s", when, a, b)
		}
		if inc.Total != full.Total || inc.Shown != full.Shown || inc.URL != full.URL {
			t.Fatalf("%s: header differs: %d/%d %s vs %d/%d %s", when, inc.Shown, inc.Total, inc.URL, full.Shown, full.Total, full.URL)
		}
	}
	open(t, p, base+"/users")
	check("first")
	check("unchanged")
	must(t, p.Click(ctxT(t), menuIn(t, p, "Alice"), ActOptions{}))
	check("menu open")
	must(t, p.Click(ctxT(t), ref(t, p, "menuitem", "Archive"), ActOptions{}))
	check("row removed")
	open(t, p, base+"/login")
	check("after a navigation")
	must(t, p.Fill(ctxT(t), ref(t, p, "textbox", "Email"), "alice@example.com", ActOptions{}))
	check("after typing")
	capped := snap(t, p, SnapshotOptions{MaxNodes: 10})
	if capped.Shown > 10 {
		t.Errorf("options changed but the last snapshot was reused: %d nodes", capped.Shown)
	}
	check("after another option set")
}

// A scope ref that was never handed out on the page says so and how far
// refs go; one that was, for an element since removed, says it is gone.
func TestScopeRefNeverIssuedOrGone(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/rows?n=3")
	full := snap(t, p, SnapshotOptions{})
	last := 0
	full.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		var k int
		if _, err := fmt.Sscanf(n.Ref, "e%d", &k); err == nil {
			last = max(last, k)
		}
		return true
	})
	for _, ref := range []string{"e999999", "x1", "e0"} {
		_, err := p.Snapshot(ctxT(t), SnapshotOptions{Scope: ref})
		if want := fmt.Sprintf("no element %s in this page's outline (refs go up to e%d)", ref, last); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("scope %s: got %v, want %q", ref, err, want)
		}
	}
	del := find(t, full, "button", "Delete")
	must(t, p.Eval(ctxT(t), nil, `(ref) => { for (const b of document.querySelectorAll('button')) if (b.textContent.trim() === 'Delete') { b.remove(); return; } }`, del.Ref))
	if _, err := p.Snapshot(ctxT(t), SnapshotOptions{Scope: del.Ref}); err == nil || !strings.Contains(err.Error(), "ref "+del.Ref+" is not on the page any more") {
		t.Errorf("scope of a removed element %s: got %v", del.Ref, err)
	}
}
