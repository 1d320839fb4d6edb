package run

import (
	"testing"
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
