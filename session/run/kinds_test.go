package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/testfile"
)

// TestRunDblclickAndRightclick runs the dblclick and rightclick step kinds
// from a test file on the fixture, with the local locator only: the double
// click opens the item's editor and the right click the custom menu.
func TestRunDblclickAndRightclick(t *testing.T) {
	e := newEnv(t)
	rep := e.run("", `name: step kinds
url: /kinds
steps:
  - dblclick: the oat milk button
  - expect: { text: { in: the Event log, contains: dblclick } }
  - expect: { visible: the Edit oat milk field }
  - rightclick: the Context area
  - expect: { visible: the Context menu }
`)
	if !rep.Passed() {
		for _, s := range steps(rep) {
			t.Logf("%s: %s %s %s", s.Command, s.Status, s.Error, s.Note)
		}
		t.Fatal("the test failed")
	}
}

// TestRunUploadRelativeToTestFile runs an upload step whose path is
// relative to its test file (in another directory than the working one):
// the file input gets the file and the page shows its name.
func TestRunUploadRelativeToTestFile(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "files"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "files", "report.txt"), []byte("1234567"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := `name: upload
url: /kinds
steps:
  - upload: { into: the Attachment button, files: [files/report.txt] }
  - expect: { text: { in: the Chosen files status, is: "Chosen: report.txt (7 bytes)" } }
`
	tt, err := testfile.Parse(filepath.Join(dir, "upload.e2e.yaml"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(Options{Config: e.cfg, Project: "fixture", Store: e.db, Browser: shared, Out: &e.out})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rep, err := r.Run(ctx, []*testfile.Test{tt})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Passed() {
		for _, s := range steps(rep) {
			t.Logf("%s: %s %s %s", s.Command, s.Status, s.Error, s.Note)
		}
		t.Fatal("the test failed")
	}
}

// TestRunUploadIntoNoFileInput: an upload into an element that neither is
// nor stands for a file input fails with the reason, and the page keeps its
// file inputs untouched; the avatar upload beside it is found by its label
// in every style of the zoo's settings page.
func TestRunUploadIntoNoFileInput(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "me.png"), []byte("png"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ url, into, err string }{
		{"/zoo/settings?style=divsoup", "the Language select", "not a file input"},
		{"/zoo/settings?style=semantic", "the Save button", "not a file input"},
		{"/zoo/settings?style=divsoup", "the avatar upload", ""},
		{"/zoo/settings?style=library", "the Avatar field", ""},
	} {
		src := "name: upload\nurl: " + c.url + "\nsteps:\n  - upload: { into: " + c.into + ", files: me.png }\n"
		tt, err := testfile.Parse(filepath.Join(dir, "upload.e2e.yaml"), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		r, err := New(Options{Config: e.cfg, Project: "fixture", Store: e.db, Browser: shared, Out: &e.out})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		rep, err := r.Run(ctx, []*testfile.Test{tt})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		ss := steps(rep)
		if c.err == "" {
			if !rep.Passed() {
				t.Errorf("upload into %s on %s failed: %s", c.into, c.url, ss[len(ss)-1].Error)
			}
			continue
		}
		if rep.Passed() || !strings.Contains(ss[len(ss)-1].Error, c.err) {
			t.Errorf("upload into %s on %s: passed=%v, error %q, want it to fail saying %q", c.into, c.url, rep.Passed(), ss[len(ss)-1].Error, c.err)
		}
	}
}

// TestRunDrag runs drag steps from a test file: an HTML5 sortable list is
// reordered and a pointer-driven board moves its card, both located by the
// local locator from plain descriptions.
func TestRunDrag(t *testing.T) {
	e := newEnv(t)
	rep := e.run("", `name: drag
url: /kinds
steps:
  - drag: { from: the Charlie option, to: the Alpha option }
  - expect: { text: { in: the Order status, is: "Charlie, Alpha, Bravo" } }
  - drag: { from: the Write report button, to: the Done list }
  - expect: { text: { in: the Event log, is: moved Write report to Done } }
`)
	if !rep.Passed() {
		for _, s := range steps(rep) {
			t.Logf("%s: %s %s %s", s.Command, s.Status, s.Error, s.Note)
		}
		t.Fatal("the test failed")
	}
}

// TestAgentUsesNewKinds checks the agent's execute_step runs the new step
// kinds, and that a CLICK whose description asks for a double click is
// refused with the kind to use instead of being clicked.
func TestAgentUsesNewKinds(t *testing.T) {
	e := newEnv(t)
	actor := &scriptedActor{commands: []string{
		`--step-type CLICK --description "double click on the oat milk button"`,
		`--step-type DBLCLICK --description "the oat milk button"`,
		`--step-type RIGHTCLICK --description "the Context area"`,
		`--step-type DRAG --description "the Charlie option" --value "the Alpha option"`,
	}}
	e.actor = actor
	rep := e.run("", `name: agent kinds
url: /kinds
steps:
  - act: rename oat milk, open the context menu and put Charlie first
  - expect: { visible: the Edit oat milk field }
  - expect: { visible: the Context menu }
  - expect: { text: { in: the Order status, is: "Charlie, Alpha, Bravo" } }
`)
	if !rep.Passed() {
		t.Fatalf("run failed:\n%s", e.out.String())
	}
	if len(actor.outcomes) != 4 {
		t.Fatalf("outcomes: %+v", actor.outcomes)
	}
	if o := actor.outcomes[0]; o.OK || !strings.Contains(o.Result, `asks to "double click"`) || !strings.Contains(o.Result, "use --step-type DBLCLICK") {
		t.Errorf("misnamed click: %+v", o)
	}
	for _, o := range actor.outcomes[1:] {
		if !o.OK {
			t.Errorf("not run: %+v", o)
		}
	}
}

// TestStudioEditsToNewKind checks the studio's edit of a proposed step
// into a DBLCLICK runs the double click.
func TestStudioEditsToNewKind(t *testing.T) {
	e := newEnv(t)
	e.actor = &scriptedActor{commands: []string{`--step-type CLICK --description "the oat milk button"`}}
	e.gate = &scriptedGate{holds: map[session.ProposalKind]bool{session.ProposedByAgent: true}, decisions: []session.Decision{
		{Verdict: session.Edit, Command: `--step-type DBLCLICK --description "the oat milk button"`},
	}}
	rep := e.run("", `name: studio kinds
url: /kinds
steps:
  - act: edit oat milk
  - expect: { visible: the Edit oat milk field }
`)
	if !rep.Passed() {
		t.Fatalf("run failed:\n%s", e.out.String())
	}
}

// TestRunItemsReplayFromCache: steps whose element is a role-less entry of
// a list (the snapshot's `item`) replay from the cache on the unchanged
// page. The cached element is checked without a snapshot, and it must be
// known as the item it was recorded as, not as plain text.
func TestRunItemsReplayFromCache(t *testing.T) {
	for _, style := range []string{"divsoup", "webcomponents"} {
		t.Run(style, func(t *testing.T) {
			e := newEnv(t)
			src := `name: items replay
url: /zoo/tasks?style=` + style + `
steps:
  - drag: { from: the eggs item, to: the oat milk item }
  - expect: { text: { in: the bread item, contains: bread } }
`
			for run := 1; run <= 2; run++ {
				rep := e.run("", src)
				for _, s := range steps(rep) {
					if s.Status == session.StatusFailed {
						t.Fatalf("run %d: %s failed: %s", run, s.Command, s.Error)
					}
					if run == 2 && s.Cache != "hit" {
						t.Errorf("run 2: %s: cache %s (%s), want a hit", s.Command, s.Cache, s.MissReason)
					}
				}
			}
		})
	}
}
