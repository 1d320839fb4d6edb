package run

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/testfile"
)

// TestFlowStepFailureNamesBothPlaces: a flow's step that fails fails its
// use step and the test, whose error names the use step's line and the
// flow's step at its place in the flow's file; the test's next step is
// skipped, and the results keep each step's depth.
func TestFlowStepFailureNamesBothPlaces(t *testing.T) {
	e := newEnv(t)
	e.findsNothing()
	f, err := testfile.ParseFlow("open.flow.yaml", []byte("name: open\nurl: /login\nsteps:\n  - expect: { title: { contains: Sign in } }\n  - click: the Launch rocket button\n"))
	if err != nil {
		t.Fatal(err)
	}
	flows, _ := testfile.NewFlows([]*testfile.Flow{f})
	tt, err := testfile.Parse("t.e2e.yaml", []byte("name: t\nsteps:\n  - use: open\n  - click: the Sign in button\n"))
	if err != nil {
		t.Fatal(err)
	}
	if l := flows.LinkTest(tt); len(l) > 0 {
		t.Fatal(l)
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
	res := rep.Tests[0]
	if want := `step 1 (line 3): flow "open", step 2 (open.flow.yaml:5): no element matches "the Launch rocket button"`; !strings.HasPrefix(res.Error, want) {
		t.Errorf("error %q\nwant it to start %q", res.Error, want)
	}
	type row struct {
		kind   string
		depth  int
		status session.StepStatus
	}
	var got []row
	for _, s := range res.Steps {
		got = append(got, row{s.Kind, s.Depth, s.Status})
	}
	want := []row{{session.KindUse, 0, session.StatusFailed}, {"NAVIGATE", 1, session.StatusPassed}, {"EXPECT", 1, session.StatusPassed},
		{"CLICK", 1, session.StatusFailed}, {"CLICK", 0, session.StatusSkipped}}
	if len(got) != len(want) {
		t.Fatalf("steps %+v\nwant %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] || res.Steps[i].Index != i {
			t.Errorf("step %d: %+v (index %d), want %+v", i, got[i], res.Steps[i].Index, want[i])
		}
	}
	if c := Count(rep.Tests); c.Steps != 4 || c.Failed != 1 || c.Skipped != 1 {
		t.Errorf("counts %+v: the use step itself is not counted", c)
	}
}
