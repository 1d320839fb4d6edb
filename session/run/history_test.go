package run

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/testfile"
)

// TestStoredAttempts: a suite with retries stores each test's attempts,
// so the run history tells a pass on a retry (flaky) from a pass at once,
// and a test that failed every attempt from one that failed once.
func TestStoredAttempts(t *testing.T) {
	e := newEnv(t)
	// A failing attempt waits its step's time out; a passing one must fit
	// in it on a loaded machine too.
	e.cfg.Timeouts.Step = 10 * time.Second
	key := fmt.Sprint(time.Now().UnixNano())
	parse := func(name, url string) *testfile.Test {
		tt, err := testfile.Parse(name+".e2e.yaml", []byte("name: "+name+"\nurl: "+url+"\nsteps:\n  - expect: { text: { in: the status, contains: Ready on attempt } }\n"))
		if err != nil {
			t.Fatal(err)
		}
		return tt
	}
	tests := []*testfile.Test{parse("flaky", "/flaky?key=a"+key+"&fails=1"), parse("broken", "/flaky?key=b"+key+"&fails=99"),
		parse("steady", "/flaky?key=c"+key+"&fails=0")}
	rep := e.runSuite(tests, SuiteOptions{Workers: 2, Retries: 1})
	ctx := context.Background()
	stored, err := e.db.Tests(ctx, rep.Run.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, tr := range stored {
		got[tr.Name] = tr.Attempts
	}
	if got["flaky"] != 2 || got["broken"] != 2 || got["steady"] != 1 {
		t.Errorf("stored attempts %v, want flaky 2, broken 2, steady 1\n%s", got, e.out.String())
	}
	hs, err := e.db.TestHistories(ctx, session.HistoryQuery{Project: "fixture", Tests: []string{"flaky", "broken", "steady"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []session.Outcome{session.OutcomeFlaky, session.OutcomeFailed, session.OutcomePassed}
	for i, h := range hs {
		if len(h.Runs) != 1 || h.Runs[0].Outcome != want[i] || h.Runs[0].RunID != rep.Run.ID {
			t.Errorf("%s: history %+v, want one run %s", h.Name, h.Runs, want[i])
		}
	}
}
