package browser

import (
	"strings"
	"testing"
)

// TestDoubleClickEditsInPlace checks DoubleClick sends a real double click:
// the label turns into a field (the page listens for dblclick), which a
// single click does not do.
func TestDoubleClickEditsInPlace(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/kinds")
	ctx := ctxT(t)
	must(t, p.Click(ctx, ref(t, p, "button", "oat milk"), ActOptions{}))
	if has(t, p, "textbox", "Edit oat milk") {
		t.Fatal("a single click opened the editor")
	}
	must(t, p.DoubleClick(ctx, ref(t, p, "button", "oat milk"), ActOptions{}))
	if !has(t, p, "textbox", "Edit oat milk") {
		t.Fatalf("no editor after a double click; page:\n%s", textOf(t, p))
	}
	if got := textOf(t, p); !strings.Contains(got, "dblclick oat milk detail=2") {
		t.Errorf("the dblclick event was not a second click (detail=2):\n%s", got)
	}
}

// TestRightClickOpensContextMenu checks RightClick presses the right
// button, so the page gets contextmenu and shows its own menu; a left click
// does not.
func TestRightClickOpensContextMenu(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/kinds")
	ctx := ctxT(t)
	must(t, p.Click(ctx, ref(t, p, "button", "Context area"), ActOptions{}))
	if has(t, p, "menu", "Context menu") {
		t.Fatal("a left click opened the context menu")
	}
	must(t, p.RightClick(ctx, ref(t, p, "button", "Context area"), ActOptions{}))
	if !has(t, p, "menu", "Context menu") {
		t.Fatalf("no context menu after a right click; page:\n%s", textOf(t, p))
	}
	if got := textOf(t, p); !strings.Contains(got, "contextmenu button=2") {
		t.Errorf("contextmenu not from the right button:\n%s", got)
	}
}
