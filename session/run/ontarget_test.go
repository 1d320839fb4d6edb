package run

import (
	"context"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/locate"
	"github.com/e2e-dev/e2e/session/testfile"
)

// TestOnTargetReportsEachLookupBeforeActing: OnTarget hears every element
// lookup with the ref it resolved to (readable, before the step acts) or
// why none, and how it was found; KeepGoing runs the steps after a failure.
func TestOnTargetReportsEachLookupBeforeActing(t *testing.T) {
	e := newEnv(t)
	// The step that finds nothing waits its own time out; the others keep
	// the generous default, so that a loaded machine only makes them slower.
	src := `name: lookups
url: /login
steps:
  - type: { into: the email field, text: a@example.com }
  - click: the Launch rocket button
    timeout: 10s
  - type: { into: the password field, text: hunter2 }
`
	tt, err := testfile.Parse("t.e2e.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	run := func(keepGoing bool, cache string) ([]TargetEvent, []string, *Report) {
		t.Helper()
		var events []TargetEvent
		var before []string // the value of each resolved field when OnTarget hears of it
		r, err := New(Options{Config: e.cfg, Project: "fixture", Store: e.db, Browser: shared, Cache: cache, KeepGoing: keepGoing,
			OnTarget: func(ctx context.Context, ev TargetEvent) {
				events = append(events, ev)
				if ev.Ref != "" {
					v, err := ev.Page.Value(ctx, ev.Ref)
					if err != nil {
						t.Errorf("read %s in OnTarget: %v", ev.Ref, err)
					}
					before = append(before, v)
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		rep, err := r.Run(ctx, []*testfile.Test{tt})
		if err != nil {
			t.Fatal(err)
		}
		return events, before, rep
	}

	events, before, rep := run(true, CacheOff)
	if len(events) != 3 {
		t.Fatalf("%d events, want 3 (KeepGoing runs the step after the failure): %+v", len(events), events)
	}
	for i, want := range []struct{ via, reason string }{{"locate", ""}, {"", locate.ReasonNoMatch}, {"locate", ""}} {
		ev := events[i]
		if ev.Step != i || ev.Via != want.via || ev.Reason != want.reason || (ev.Ref != "") != (want.via != "") {
			t.Errorf("event %d: step %d ref %q via %q reason %q, want step %d via %q reason %q", i, ev.Step, ev.Ref, ev.Via, ev.Reason, i, want.via, want.reason)
		}
		if want.via == "locate" && (ev.Node == nil || ev.Node.Ref != ev.Ref || len(ev.Why) == 0 || ev.Look <= 0) {
			t.Errorf("event %d: node %v why %v look %v, want the located node, its reasons and the look's time", i, ev.Node, ev.Why, ev.Look)
		}
	}
	if events[1].Err == nil || events[1].Description != "the Launch rocket button" {
		t.Errorf("failed lookup: %+v", events[1])
	}
	if len(before) != 2 || before[0] != "" || before[1] != "" {
		t.Errorf("field values when OnTarget heard of them: %q, want both empty (before the step types)", before)
	}
	if rep.Passed() || rep.Tests[0].Steps[2].Status != session.StatusLocated {
		t.Errorf("the test passed %v, step 3 %s: want a failed test whose third step still ran", rep.Passed(), rep.Tests[0].Steps[2].Status)
	}

	// Without KeepGoing the step after the failure is skipped, unseen.
	if events, _, rep = run(false, CacheOff); len(events) != 2 || rep.Tests[0].Steps[2].Status != session.StatusSkipped {
		t.Errorf("without KeepGoing: %d events, step 3 %s; want 2 and skipped", len(events), rep.Tests[0].Steps[2].Status)
	}
}

// TestOnTargetSaysCache: a lookup answered from the element cache says so.
func TestOnTargetSaysCache(t *testing.T) {
	e := newEnv(t)
	tt, err := testfile.Parse("t.e2e.yaml", []byte("name: cached\nurl: /login\nsteps:\n  - type: { into: the email field, text: a@example.com }\n"))
	if err != nil {
		t.Fatal(err)
	}
	var vias []string
	for range 2 {
		r, err := New(Options{Config: e.cfg, Project: "fixture", Store: e.db, Browser: shared,
			OnTarget: func(_ context.Context, ev TargetEvent) { vias = append(vias, ev.Via) }})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		rep, err := r.Run(ctx, []*testfile.Test{tt})
		cancel()
		if err != nil || !rep.Passed() {
			t.Fatalf("run: %v %+v", err, rep)
		}
	}
	if len(vias) != 2 || vias[0] != "locate" || vias[1] != "cache" {
		t.Errorf("vias %q, want [locate cache]", vias)
	}
}
