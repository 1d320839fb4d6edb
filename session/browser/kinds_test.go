package browser

import (
	"os"
	"path/filepath"
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

// TestSetFilesShowsFileName checks SetFiles chooses files in a file input,
// and in the hidden input a label stands for, so that the page gets change
// events and shows the names; an element with no file input is refused.
func TestSetFilesShowsFileName(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/kinds")
	ctx := ctxT(t)
	dir := t.TempDir()
	report := filepath.Join(dir, "report.txt")
	must(t, os.WriteFile(report, []byte("12345"), 0o644))
	photo := filepath.Join(dir, "cat.png")
	must(t, os.WriteFile(photo, []byte("png"), 0o644))

	must(t, p.SetFiles(ctx, ref(t, p, "button", "Attachment"), []string{report}))
	if got := textOf(t, p); !strings.Contains(got, "Chosen: report.txt (5 bytes)") {
		t.Errorf("file input: page does not show the file:\n%s", got)
	}
	must(t, p.SetFiles(ctx, ref(t, p, "button", "Choose photo"), []string{photo}))
	if got := textOf(t, p); !strings.Contains(got, "Chosen: cat.png (3 bytes)") {
		t.Errorf("label of a hidden input: page does not show the file:\n%s", got)
	}
	err := p.SetFiles(ctx, ref(t, p, "button", "Context area"), []string{photo})
	if ae, ok := err.(*ActionError); !ok || ae.Reason != ReasonNotFit {
		t.Errorf("upload into a plain button: got %v, want a not-fit ActionError", err)
	}
	if err := p.SetFiles(ctx, ref(t, p, "button", "Attachment"), []string{filepath.Join(dir, "missing.txt")}); err == nil {
		t.Error("a missing file was accepted")
	}
}

// TestDragReorders checks Drag on both kinds of page: an HTML5 sortable
// list is reordered by the drag events, and a pointer-driven board moves
// its card when the mouse is pressed, moved and released.
func TestDragReorders(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/kinds")
	ctx := ctxT(t)
	must(t, p.Drag(ctx, ref(t, p, "option", "Charlie"), ref(t, p, "option", "Alpha"), ActOptions{}))
	if got := textOf(t, p); !strings.Contains(got, "Charlie, Alpha, Bravo") {
		t.Errorf("HTML5 list not reordered:\n%s", got)
	}
	must(t, p.Drag(ctx, ref(t, p, "button", "Write report"), ref(t, p, "list", "Done"), ActOptions{}))
	if got := textOf(t, p); !strings.Contains(got, "moved Write report to Done") {
		t.Errorf("pointer board card not moved:\n%s", got)
	}
}
