package run

import (
	"fmt"
	"testing"

	"github.com/e2e-dev/e2e/session/testfile"
)

// OnTestStart hears of every test once, before it ends and before its
// retries, with its place in the suite and its shown path; OnTestDone
// names the same place.
func TestOnTestStartComesBeforeEachTestEnds(t *testing.T) {
	e := newEnv(t)
	var tests []*testfile.Test
	for i, src := range []string{productTest, "name: fails\nurl: /product\nsteps:\n  - expect: { visible: the Launch rocket button }\n"} {
		tt, err := testfile.Parse(fmt.Sprintf("/abs/t%d.e2e.yaml", i), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		tt.Shown = fmt.Sprintf("t%d.e2e.yaml", i)
		tests = append(tests, tt)
	}
	var events []string
	e.cfg.Timeouts.Step = 1500e6
	e.runSuite(tests, SuiteOptions{Workers: 2, Retries: 1,
		OnTestStart: func(s Started) {
			if s.Total != 2 || s.At.IsZero() || s.Worker < 1 || s.File != tests[s.Index].Shown || s.Name != tests[s.Index].Name {
				t.Errorf("started %+v", s)
			}
			events = append(events, fmt.Sprintf("start %d", s.Index))
		},
		OnTestDone: func(p Progress) { events = append(events, fmt.Sprintf("done %d", p.Index)) },
	})
	seen := map[string]int{}
	for k, ev := range events {
		seen[ev]++
		var i int
		if _, err := fmt.Sscanf(ev, "done %d", &i); err == nil && seen[fmt.Sprintf("start %d", i)] != 1 {
			t.Errorf("event %d, %s, before its start: %v", k, ev, events)
		}
	}
	if len(events) != 4 || seen["start 0"] != 1 || seen["start 1"] != 1 || seen["done 0"] != 1 || seen["done 1"] != 1 {
		t.Errorf("events %v, want each test started once and done once", events)
	}
}
