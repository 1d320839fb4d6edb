package run

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
)

// Cache policies: how a run uses the element cache and trajectories.
const (
	CacheReadWrite = "read-write" // read, and write what passing tests learned (the default)
	CacheReadOnly  = "read-only"  // read, never write
	CacheOff       = "off"        // neither: every element is located and every act asks the agent
	// CacheStrict reads and never writes; a missing or stale entry fails
	// the test (StaleError) instead of spending model calls.
	CacheStrict = "strict"
)

// StaleError fails a step under the strict cache policy: the entry for it
// is missing or no longer replays.
type StaleError struct {
	What   string // the step's description or the act's goal
	Reason string // "no entry", or why the entry missed
}

func (e *StaleError) Error() string {
	return fmt.Sprintf("cache is stale for %q (%s); the strict cache policy does not call the model", e.What, e.Reason)
}

// reads and writes say what the policy allows.
func (r *Runner) reads() bool  { return r.o.Cache != CacheOff }
func (r *Runner) writes() bool { return r.o.Cache == CacheReadWrite }
func (r *Runner) strict() bool { return r.o.Cache == CacheStrict }

// appIdentity is the configured app identity, else the base URL's origin.
func appIdentity(cfg *testfile.Config) string {
	if cfg.Cache.App != "" {
		return cfg.Cache.App
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || u.Host == "" {
		return cfg.BaseURL
	}
	return u.Scheme + "://" + u.Host
}

// keyFor returns the cache key of an instruction in this test, or in the
// flow running (see flowScope), and remembers its identity, to be stored
// with the row.
func (r *Runner) keyFor(tr *testRun, instruction string, params []string, occurrence int) session.CacheKey {
	p := session.KeyParts{Project: r.o.Project, Test: tr.keyTest(), Flow: tr.keyFlow(), Target: r.o.Target, App: r.o.App,
		Instruction: instruction, Params: params, Occurrence: occurrence, Agent: r.o.Agent, Context: tr.context()}
	k := session.Key(p)
	tr.identity[k] = string(session.Identity(p))
	return k
}

// params lists the variables a step uses, as written.
func params(st step.Step) []string {
	var names []string
	if vars, err := testfile.StepVars(st); err == nil {
		for _, v := range vars {
			names = append(names, v.String())
		}
	}
	return names
}

// key returns the cache key of a step: a trajectory step names its entry;
// otherwise occurrence counts the steps before it in this test with the
// same instruction and parameters.
func (r *Runner) key(tr *testRun, raw step.Step) session.CacheKey {
	if raw.CacheID != "" {
		return session.CacheKey(raw.CacheID)
	}
	ps := params(raw)
	id := session.OccurrenceID(raw.Description, ps)
	occ := tr.occurrences()
	n := occ[id]
	occ[id] = n + 1
	return r.keyFor(tr, raw.Description, ps, n)
}

// readEntry reads the element cache row of key. A row the store cannot
// decode (session.ErrUnreadableRow) is no entry: the step records a miss
// with reason session.MissUnreadableRow (session.MissOversizeRow and what
// is over its bound, for a row too large to replay), and the element
// located again replaces the row when the test passes.
func (r *Runner) readEntry(ctx context.Context, key session.CacheKey, sr *session.StepResult) (*session.CacheEntry, error) {
	e, err := r.o.Store.Cache(ctx, key)
	if errors.Is(err, session.ErrUnreadableRow) {
		sr.Cache, sr.MissReason = "miss", unreadableReason(err)
		return nil, nil
	}
	return e, err
}

// unreadableReason is the miss reason of a row the store could not read.
func unreadableReason(err error) string {
	if oe, ok := errors.AsType[*session.OversizeRowError](err); ok {
		return oe.MissReason()
	}
	return session.MissUnreadableRow
}

// readTrajectory is readEntry for the trajectory of an act: an unreadable
// one is recorded again.
func readTrajectory(ctx context.Context, ts TrajectoryStore, key session.CacheKey, sr *session.StepResult) (*session.Trajectory, error) {
	t, err := ts.Trajectory(ctx, key)
	if errors.Is(err, session.ErrUnreadableRow) {
		sr.Cache, sr.MissReason = "miss", unreadableReason(err)
		return nil, nil
	}
	return t, err
}

// pendingWrite is a cache write held until the test passes: only passing
// tests write. done, when set, learns the outcome (e.g. a heal's id);
// dropped, when set, learns that the write was not made (the test failed,
// or a write before it did).
type pendingWrite struct {
	write   func(ctx context.Context) error
	done    func(res *session.TestResult)
	dropped func(res *session.TestResult)
}

// hold holds a write for the end of the test, when the policy writes.
func (tr *testRun) hold(w pendingWrite) { tr.pending = append(tr.pending, w) }

// flush writes what the test learned, in order, when it passed. A failed
// write fails the test.
func (r *Runner) flush(ctx context.Context, tr *testRun, res *session.TestResult) {
	drop := func(ws []pendingWrite) {
		for _, w := range ws {
			if w.dropped != nil {
				w.dropped(res)
			}
		}
	}
	if res.Status != "passed" {
		drop(tr.pending)
		return
	}
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	for i, w := range tr.pending {
		if err := w.write(wctx); err != nil {
			res.Status, res.Error = "failed", "save caches: "+tr.redact(err.Error())
			drop(tr.pending[i:])
			return
		}
		if w.done != nil {
			w.done(res)
		}
	}
}

// adoptEntry holds a copy of a row read from another branch as a row of this
// checkout when it is on the main branch: rows a merge brought in become
// main's own, and stay when later merges push it out of the recent ones.
func (r *Runner) adoptEntry(tr *testRun, e *session.CacheEntry) {
	if l, ok := r.lineage(); ok && l.OnMain() && e.Branch != l.Branch && r.writes() {
		c := *e
		c.CreatedAt, c.UsedAt = time.Time{}, time.Time{}
		tr.hold(pendingWrite{write: func(ctx context.Context) error { return r.o.Store.PutCache(ctx, &c) }})
	}
}

// adoptTrajectory is adoptEntry for a trajectory.
func (r *Runner) adoptTrajectory(tr *testRun, ts TrajectoryStore, t *session.Trajectory) {
	if l, ok := r.lineage(); ok && l.OnMain() && t.Branch != l.Branch && r.writes() {
		c := *t
		tr.hold(pendingWrite{write: func(ctx context.Context) error { return ts.PutTrajectory(ctx, &c) }})
	}
}

// lineage is the store's lineage, when it has one.
func (r *Runner) lineage() (session.Lineage, bool) {
	ls, ok := r.o.Store.(interface{ Lineage() session.Lineage })
	if !ok {
		return session.Lineage{}, false
	}
	return ls.Lineage(), true
}

// Stale reports whether the strict cache policy failed any test.
func (r *Report) Stale() bool {
	for _, t := range r.Tests {
		if t.Stale {
			return true
		}
	}
	return false
}

// slotSteps returns recorded step commands with this test's unique values
// (in every spelling) replaced by their variables, so the next run's fresh
// values replay through the same trajectory.
func (tr *testRun) slotSteps(cmds []string) []string {
	if len(tr.uniques) == 0 {
		return cmds
	}
	out := make([]string, len(cmds))
	for i, c := range cmds {
		st, err := step.Parse(c)
		if err != nil {
			out[i] = c
			continue
		}
		st.Description = testfile.Slots(st.Description, tr.uniques)
		st.Value = testfile.Slots(st.Value, tr.uniques)
		out[i] = st.String()
	}
	return out
}

// slotEvidence is slotSteps for the evidence of an end state.
func (tr *testRun) slotEvidence(ev session.Evidence) session.Evidence {
	if len(tr.uniques) == 0 {
		return ev
	}
	slot := func(list []string) []string {
		out := make([]string, len(list))
		for i, s := range list {
			out[i] = testfile.Slots(s, tr.uniques)
		}
		return out
	}
	return session.Evidence{Route: testfile.Slots(ev.Route, tr.uniques), Appeared: slot(ev.Appeared), Vanished: slot(ev.Vanished)}
}

// resolveEvidence fills the unique slots of recorded evidence with this
// run's values. Text that does not resolve (a page that shows "{{") stays.
func (tr *testRun) resolveEvidence(ev session.Evidence) session.Evidence {
	res := func(s string) string {
		if !strings.Contains(s, "{{") {
			return s
		}
		v, _, err := testfile.ResolveString(s, nil, tr.unique)
		if err != nil {
			return s
		}
		return v
	}
	out := session.Evidence{Route: res(ev.Route)}
	for _, s := range ev.Appeared {
		out.Appeared = append(out.Appeared, res(s))
	}
	for _, s := range ev.Vanished {
		out.Vanished = append(out.Vanished, res(s))
	}
	return out
}

// slotIntent puts raw's variables back into an intent made from its
// resolved description: an attribute, or the name of a related element,
// that holds a variable's value holds the variable, as written, instead.
// A later run with another value then checks the element against its own
// value rather than the recorded one, and no secret value is stored.
// Values shorter than two characters stay literal (they would match
// inside unrelated words).
func (r *Runner) slotIntent(tr *testRun, raw step.Step, in session.Intent) session.Intent {
	vars, err := testfile.StepVars(raw)
	if err != nil || len(vars) == 0 {
		return in
	}
	type slot struct{ value, v string }
	var slots []slot
	for _, v := range vars {
		if val, _, err := testfile.ResolveString(v.String(), r.o.Env, tr.unique); err == nil && len(val) >= 2 {
			slots = append(slots, slot{val, v.String()})
		}
	}
	sort.Slice(slots, func(i, j int) bool { return len(slots[i].value) > len(slots[j].value) })
	return mapIntent(in, func(s string) string {
		for _, sl := range slots {
			s = strings.ReplaceAll(s, sl.value, sl.v)
		}
		return s
	})
}

// resolveIntent fills the variables of a recorded intent with this run's
// values. A variable that does not resolve stays as written, and so fails
// the check rather than pass it.
func (r *Runner) resolveIntent(tr *testRun, in session.Intent) session.Intent {
	return mapIntent(in, func(s string) string {
		if !strings.Contains(s, "{{") {
			return s
		}
		if v, _, err := testfile.ResolveString(s, r.o.Env, tr.unique); err == nil {
			return v
		}
		return s
	})
}

// mapIntent is in with f applied to its attribute values and related names.
func mapIntent(in session.Intent, f func(string) string) session.Intent {
	var out session.Intent
	if in.Attributes != nil {
		out.Attributes = make(map[string]string, len(in.Attributes))
		for k, v := range in.Attributes {
			out.Attributes[k] = f(v)
		}
	}
	for _, rel := range in.Related {
		rel.Name = f(rel.Name)
		out.Related = append(out.Related, rel)
	}
	return out
}
