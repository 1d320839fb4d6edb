package run

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
)

// TrajectoryStore keeps recorded acts and their heals; the store implements it.
type TrajectoryStore interface {
	Trajectory(ctx context.Context, key session.CacheKey) (*session.Trajectory, error)
	PutTrajectory(ctx context.Context, t *session.Trajectory) error
	StagedHeal(ctx context.Context, key session.CacheKey) (*session.Heal, error)
	PutHeal(ctx context.Context, h *session.Heal) error
}

// Heal policies: what a run does when a replayed act fails.
const (
	HealOff    = "off"    // the act fails
	HealStage  = "stage"  // the agent heals it, the run passes, the new trajectory waits for review (the default)
	HealAccept = "accept" // the agent heals it and the new trajectory replaces the old one at once
)

// runAct replays the act's recorded trajectory without a model when there
// is one, checking the recorded evidence of the end state; otherwise the
// agent reaches the goal and its trajectory is recorded.
func runAct(r *Runner, ctx context.Context, tr *testRun, raw, st step.Step, sr *session.StepResult) error {
	ts, ok := r.o.Store.(TrajectoryStore)
	if !ok {
		return fmt.Errorf("act: the store keeps no trajectories")
	}
	key := r.key(tr, raw)
	env := &actEnv{r: r, tr: tr, goal: raw.Description}
	// Whatever the page links to or says, the act's loads stay on the
	// allowed origins: others are blocked before they leave the browser.
	guard, err := tr.page.GuardNavigations(ctx, func(u string) bool {
		return !strings.HasPrefix(u, "http") || r.outsideOrigins(u) == ""
	}, r.allowedOriginPatterns())
	if err != nil {
		return err
	}
	defer guard.Stop(ctx)
	env.guard = guard
	var traj *session.Trajectory
	// A re-recorded act (the studio's, of a test's own act) starts from
	// scratch; the new trajectory replaces it.
	rerecord := r.o.Rerecord[tr.index] && tr.flow == nil
	if r.reads() && !rerecord {
		if traj, err = readTrajectory(ctx, ts, key, sr); err != nil {
			return err
		}
	}
	if traj == nil && r.strict() && !rerecord {
		return &StaleError{What: raw.Description, Reason: "no recorded trajectory"}
	}
	if traj != nil {
		// A staged heal of this branch stands in for the trajectory until
		// it is decided.
		staged, err := ts.StagedHeal(ctx, key)
		if err != nil {
			return err
		}
		if staged != nil {
			traj = &session.Trajectory{Key: key, Project: traj.Project, Test: traj.Test, Goal: traj.Goal,
				Steps: staged.NewSteps, Postcondition: staged.Postcondition, Evidence: staged.Evidence, Gaps: staged.Gaps, Identity: traj.Identity}
		}
		start, err := env.Snapshot(ctx)
		if err != nil {
			return err
		}
		tr.post = traj.Postcondition
		failed, why := r.replayTrajectory(ctx, tr, env, traj, sr)
		if why == "" {
			sr.Status, sr.Cache = session.StatusHit, "hit"
			if t, ok := ts.(interface {
				TouchTrajectory(context.Context, session.CacheKey) error
			}); ok && (r.writes() || r.strict()) {
				_ = t.TouchTrajectory(ctx, key)
			}
			if staged == nil {
				r.adoptTrajectory(tr, ts, traj)
				return nil
			}
			// The test passes only through a heal nobody has reviewed yet:
			// it stays healed, run after run, until the heal is decided.
			sr.MissReason = fmt.Sprintf("%s, heal %d of %s, not reviewed yet)", session.HealStagedPrefix, staged.ID, staged.CreatedAt.Local().Format("2006-01-02 15:04"))
			if r.cap != nil {
				r.cap.addHeal(staged.ID)
			}
			return nil
		}
		sr.Cache = "miss"
		if env.stopped != nil {
			return env.stopped
		}
		if r.strict() {
			sr.MissReason = "stale"
			return &StaleError{What: raw.Description, Reason: why}
		}
		if r.o.HealPolicy == HealOff || r.o.Actor == nil {
			sr.MissReason = "replay failed"
			return fmt.Errorf("replaying the recorded act failed: %s", why)
		}
		return r.heal(ctx, tr, env, ts, traj, start, failed, why, sr)
	}
	if r.o.Actor == nil {
		return needsModel(r, ctx, tr, raw, st, sr)
	}
	before, err := env.Snapshot(ctx)
	if err != nil {
		return err
	}
	res, err := r.o.Actor.Act(ctx, raw.Description, tr.context(), env)
	sr.LLMCalls += res.ModelCalls
	if env.stopped != nil {
		return env.stopped // no trajectory is written for an act stopped midway
	}
	if err != nil {
		return err
	}
	if !res.Success {
		return fmt.Errorf("the agent could not reach the goal: %s", tr.redact(res.Message))
	}
	after, err := env.Snapshot(ctx)
	if err != nil {
		return err
	}
	sr.Status = session.StatusLocated
	sr.Note = tr.redact(res.Message)
	tr.post = res.Postcondition
	if r.writes() {
		t := &session.Trajectory{Key: key, Project: r.o.Project, Test: tr.owner(), Goal: raw.Description,
			Steps: tr.slotSteps(res.Steps), Postcondition: testfile.Slots(res.Postcondition, tr.uniques), Evidence: tr.slotEvidence(evidenceOf(before, after)),
			Gaps: env.gaps(res.Steps), Identity: tr.identity[key]}
		tr.hold(pendingWrite{write: func(ctx context.Context) error { return ts.PutTrajectory(ctx, t) }})
	}
	return nil
}

// replayTrajectory runs the recorded steps and checks the end state. It
// returns "" when all held, else the index of the step that failed
// (len(steps) for the end state) and why.
func (r *Runner) replayTrajectory(ctx context.Context, tr *testRun, env *actEnv, traj *session.Trajectory, sr *session.StepResult) (int, string) {
	read := gapValues{}
	env.replay = true
	defer func() { env.replay = false }()
	for i, cmd := range traj.Steps {
		if err := read.readAt(ctx, env, traj.Gaps, i); err != nil {
			return i, err.Error()
		}
		out := env.Execute(ctx, read.fill(cmd, traj.Gaps))
		if !out.OK {
			shown := out.Command
			if st, err := step.Parse(shown); err == nil {
				st.CacheID = ""
				shown = st.String()
			}
			return i, fmt.Sprintf("step %d (%s) failed: %s", i+1, shown, out.Result)
		}
	}
	end, err := env.Snapshot(ctx)
	if err != nil {
		return len(traj.Steps), err.Error()
	}
	clear, why := checkEvidence(read.fillEvidence(tr.resolveEvidence(traj.Evidence), traj.Gaps), end)
	if why != "" && !clear && r.o.Judge != nil && traj.Postcondition != "" {
		// Inconclusive evidence (the route holds but recorded elements
		// are missing): the model judges the agent's postcondition.
		claim := traj.Postcondition
		if v, _, err := testfile.ResolveString(claim, nil, tr.unique); err == nil {
			claim = v
		}
		claim = read.fillText(claim, traj.Gaps)
		pass, reasoning, calls, err := r.o.Judge.Judge(ctx, end, claim)
		sr.LLMCalls += calls
		sr.Note = tr.redact(reasoning)
		if err != nil {
			return len(traj.Steps), err.Error()
		}
		if pass {
			why = ""
		}
	}
	if why != "" {
		return len(traj.Steps), why + " (recorded: " + traj.Postcondition + ")"
	}
	return -1, ""
}

// heal hands a failed replay back to the agent: the goal, the recorded
// steps, the failing index and reason, what was already replayed, and the
// live page. It reaches the goal from there and the trajectory is spliced:
// the replayed head kept, the agent's steps after it. A heal may not drop or
// weaken an expect or assert of the old trajectory.
func (r *Runner) heal(ctx context.Context, tr *testRun, env *actEnv, ts TrajectoryStore, traj *session.Trajectory,
	start *ax.Snapshot, failed int, why string, sr *session.StepResult) error {
	var b strings.Builder
	if c := tr.context(); c != "" {
		b.WriteString(c + "\n\n")
	}
	b.WriteString("You are healing a recorded act. Its steps were:\n")
	for i, c := range traj.Steps {
		fmt.Fprintf(&b, "%d: %s\n", i, c)
	}
	if failed < len(traj.Steps) {
		fmt.Fprintf(&b, "Replay ran steps 0 to %d successfully; they are done, do not repeat them. Step %d failed: %s\n", failed-1, failed, why)
	} else {
		fmt.Fprintf(&b, "Replay ran every step, but the end state is wrong: %s\n", why)
	}
	b.WriteString("Reach the goal from the page as it is now.")
	before, err := env.Snapshot(ctx)
	if err != nil {
		return err
	}
	res, err := r.o.Actor.Act(ctx, traj.Goal, b.String(), env)
	sr.LLMCalls += res.ModelCalls
	if env.stopped != nil {
		return env.stopped
	}
	if err != nil {
		return fmt.Errorf("replaying the recorded act failed (%s) and healing it failed: %w", why, err)
	}
	if !res.Success {
		return fmt.Errorf("replaying the recorded act failed (%s) and the agent could not heal it: %s", why, tr.redact(res.Message))
	}
	head := traj.Steps[:min(failed, len(traj.Steps))]
	newSteps := append(append([]string{}, head...), tr.slotSteps(res.Steps)...)
	if lost := weakened(traj.Steps, newSteps); lost != "" {
		return fmt.Errorf("the heal drops or weakens %s; it is refused", lost)
	}
	end, err := env.Snapshot(ctx)
	if err != nil {
		return err
	}
	status := "staged"
	if r.o.HealPolicy == HealAccept {
		status = "accepted"
	}
	// The replayed head ran as the first len(head) commands of env, so the
	// gaps of the agent's steps come out indexed in newSteps.
	gaps := append(headGaps(traj.Gaps, head), env.gaps(res.Steps)...)
	h := &session.Heal{Key: traj.Key, Project: r.o.Project, Test: tr.owner(), Goal: traj.Goal, OldSteps: traj.Steps, NewSteps: newSteps,
		FailedIndex: failed, Reason: tr.redact(why), Postcondition: res.Postcondition, Evidence: tr.slotEvidence(evidenceOf(start, end)), Status: status,
		PageBefore: pageText(before), PageAfter: pageText(end), Gaps: gaps}
	tr.post = res.Postcondition
	sr.Status = session.StatusRelocated
	sr.Note = tr.redact(why)
	if !r.writes() {
		sr.MissReason = "healed (not kept: the cache policy is " + r.o.Cache + ")"
		return nil
	}
	// The heal is kept when the test passes; its id is known then. Until
	// then the step says so: a test that fails later stages nothing.
	sr.MissReason = "healed (" + status + " if the test passes)"
	idx := sr.Index
	tr.hold(pendingWrite{write: func(ctx context.Context) error { return ts.PutHeal(ctx, h) },
		dropped: func(res *session.TestResult) {
			if idx < len(res.Steps) {
				res.Steps[idx].MissReason = "healed (not kept: the test failed)"
			}
		},
		done: func(res *session.TestResult) {
			if idx < len(res.Steps) {
				res.Steps[idx].MissReason = fmt.Sprintf("healed (%s, heal %d)", status, h.ID)
			}
			if r.cap != nil { // the suite's reports list the heals of each test
				r.cap.addHeal(h.ID)
			}
			r.publish(session.HealStaged{Heal: *h})
		}})
	return nil
}

// weakened names an expect or assert step of old that new lacks, or "".
func weakened(old, new []string) string {
	have := map[string]bool{}
	for _, c := range new {
		if st, err := step.Parse(c); err == nil {
			st.CacheID = ""
			have[st.String()] = true
		}
	}
	for _, c := range old {
		st, err := step.Parse(c)
		if err != nil || (st.Type != step.Expect && st.Type != step.Assert) {
			continue
		}
		st.CacheID = ""
		if !have[st.String()] {
			return st.String()
		}
	}
	return ""
}

// actEnv is the page as an agent sees and drives it.
type actEnv struct {
	r     *Runner
	tr    *testRun
	goal  string
	n     int            // steps run, to number new cache keys
	guard *browser.Guard // blocks loads outside the allowed origins
	// What the agent saw and did, in order, to find the values it read off
	// the screen (see gaps.go).
	seen []seenSnapshot
	done []string // the commands that succeeded

	replay      bool  // the steps come from a recorded trajectory, not the agent
	sub         int   // steps run or refused, numbered for the watcher
	approveRest bool  // the engineer approved the rest of this act
	stopped     error // the gate failed (the engineer quit): nothing more runs
}

// Snapshot is the settled page with secret values redacted.
func (e *actEnv) Snapshot(ctx context.Context) (*ax.Snapshot, error) {
	e.r.settle(ctx, e.tr)
	s, err := e.tr.page.Snapshot(ctx, browser.SnapshotOptions{})
	if err != nil {
		return nil, err
	}
	if err := e.r.pageOffOriginNow(ctx, e.tr); err != nil {
		return nil, err // the agent never sees a page off the allowed origins
	}
	redactSnapshot(s, e.tr.red)
	e.seen = append(e.seen, seenSnapshot{snap: s, done: len(e.done)})
	e.r.showSnapshot(s, "")
	return s, nil
}

// Execute runs one step command through the same machinery as a test's own
// steps (element cache included) and says how it went. Commands keep their
// variables as placeholders; values are substituted here, for the browser only.
func (e *actEnv) Execute(ctx context.Context, command string) session.StepOutcome {
	sub := e.sub
	e.sub++
	e.r.publish(session.StepStarted{Index: e.tr.index, Sub: sub, Command: command})
	out, sr := e.gated(ctx, command)
	fin := session.StepFinished{Index: e.tr.index, Sub: sub, Command: out.Command, Status: sr.Status, Cache: session.CacheStatusOf(sr), Note: sr.Note, Reidentified: sr.Reidentified,
		DurationMS: sr.DurationMS, MissReason: sr.MissReason, LLMCalls: sr.LLMCalls, Candidates: e.tr.takeWeighed()}
	if !out.OK {
		fin.Status, fin.Cache, fin.Error = session.StatusFailed, session.CacheFailed, out.Result
	} else if fin.Cache == session.CacheNone && !e.replay && sr.Status != session.StatusSkipped {
		fin.Cache = session.CacheNew // the agent's step joins the trajectory
	} else if fin.Cache == session.CacheNone && e.replay {
		fin.Cache = session.CacheHit
	}
	if fin.Command == "" {
		fin.Command = command
	}
	e.r.publish(fin)
	return out
}

// gated asks the gate about a step before it runs: the agent's steps
// always, replayed steps when the gate holds them. An edited command runs
// in place of the proposed one and the agent is told what changed; a
// rejected one does not run and the reason is the agent's feedback.
func (e *actEnv) gated(ctx context.Context, command string) (session.StepOutcome, session.StepResult) {
	kind := session.ProposedByAgent
	if e.replay {
		kind = session.ProposedReplay
	}
	if e.approveRest && !e.replay {
		return e.execute(ctx, command)
	}
	if e.stopped != nil {
		return session.StepOutcome{Command: command, Result: e.stopped.Error()}, session.StepResult{}
	}
	d, err := e.r.ask(ctx, e.tr, session.Proposal{Kind: kind, Index: e.tr.index, Goal: e.goal, Command: command})
	if err != nil {
		e.stopped = err
		return session.StepOutcome{Command: command, Result: err.Error()}, session.StepResult{}
	}
	switch d.Verdict {
	case session.Reject:
		return session.StepOutcome{Command: command, Result: "REJECTED by the engineer, not run. Their reason: " + d.Reason}, session.StepResult{}
	case session.Skip:
		if e.replay {
			return session.StepOutcome{Command: command, OK: true, Result: "skipped by the engineer"}, session.StepResult{Status: session.StatusSkipped}
		}
		return session.StepOutcome{Command: command, Result: "SKIPPED by the engineer, not run; go on without it"}, session.StepResult{}
	case session.Edit:
		out, sr := e.execute(ctx, d.Command)
		out.Result = fmt.Sprintf("the engineer EDITED the proposed command; it ran as %s (proposed: %s). %s", d.Command, command, out.Result)
		return out, sr
	case session.ApproveRest:
		if !e.replay {
			e.approveRest = true
		}
	}
	return e.execute(ctx, command)
}

// execute runs one step command; see Execute.
func (e *actEnv) execute(ctx context.Context, command string) (session.StepOutcome, session.StepResult) {
	st, err := step.Parse(command)
	if err != nil {
		return session.StepOutcome{Command: command, Result: "not a step command: " + err.Error()}, session.StepResult{}
	}
	switch st.Type {
	case step.Act, step.Assert:
		return session.StepOutcome{Command: command, Result: strings.ToLower(string(st.Type)) + " steps cannot run inside an act"}, session.StepResult{}
	case step.Navigate:
		if why := e.r.outsideOrigins(st.Value); why != "" {
			return session.StepOutcome{Command: command, Result: why}, session.StepResult{}
		}
	}
	if spec, ok := step.Types[st.Type]; ok && spec.Fields.Element && st.CacheID == "" {
		e.n++
		st.CacheID = string(e.r.keyFor(e.tr, "act: "+e.goal+" › "+st.Description, params(st), e.n))
	}
	resolved, secrets, err := testfile.Resolve(st, e.r.o.Env, e.tr.unique)
	e.tr.addSecrets(secrets)
	out := session.StepOutcome{Command: st.String(), CacheID: st.CacheID}
	if err != nil {
		out.Result = err.Error()
		return out, session.StepResult{}
	}
	var sr session.StepResult
	if h, ok := handlers[st.Type]; !ok {
		err = fmt.Errorf("step type %s is not supported", st.Type)
	} else {
		start := time.Now()
		err = e.r.runHandler(ctx, h, e.tr, st, resolved, &sr)
		sr.DurationMS = time.Since(start).Milliseconds()
	}
	if blocked := e.guard.Blocked(); len(blocked) > 0 {
		// The step ran, but it tried to take the tab off the site.
		if back := e.tr.page.LeaveErrorPage(ctx); back != nil && err == nil {
			err = back
		}
		why := fmt.Sprintf("refused: it tried to open %s, which is not an allowed origin; the load was blocked and the page stayed where it was", e.tr.redact(blocked[0]))
		if err != nil {
			why += " (" + err.Error() + ")"
		}
		err = errors.New(why)
	}
	if err != nil {
		out.Result = e.tr.redact(err.Error())
		return out, sr
	}
	out.OK = true
	e.done = append(e.done, out.Command)
	out.Result = strings.ToLower(string(st.Type)) + " done"
	if sr.Status != "" && sr.Status != session.StatusPassed {
		out.Result += " (" + string(sr.Status) + ")"
	}
	if sr.Note != "" {
		out.Result += "; " + e.tr.redact(sr.Note)
	}
	// The agent learns of the dialogs the step made the page open.
	ds, derr := e.tr.takeDialogs()
	for _, d := range ds {
		out.Result += fmt.Sprintf("; the page opened a %s dialog %q, %s", d.Type, e.tr.redact(d.Message), e.tr.answerWords(d))
	}
	if derr != nil {
		out.Result += "; " + derr.Error()
	}
	return out, sr
}

// outsideOrigins says why the agent may not open u, or "" when it may: the
// base URL's origin and the configured allowedOrigins are allowed, whatever
// the page says.
func (r *Runner) outsideOrigins(u string) string {
	if !strings.Contains(u, "://") {
		return "" // relative to the base URL
	}
	target, err := url.Parse(u)
	if err != nil {
		return "invalid URL " + u
	}
	origin := strings.ToLower(target.Scheme + "://" + target.Host)
	if r.o.allow.allows(origin) {
		return ""
	}
	return "refused: " + origin + " is not an allowed origin (the base URL's origin and allowedOrigins in e2e.yaml are)"
}

// matchOrigin matches an origin against a pattern like https://*.stripe.com.
func matchOrigin(pattern, origin string) bool {
	re, err := regexp.Compile(originPattern(pattern))
	return err == nil && re.MatchString(origin)
}

// originPattern is the regular expression of an allowedOrigins pattern: a
// * stands for any run of characters but a slash. The syntax is one Go and
// JavaScript share (the page checks new windows against it).
func originPattern(pattern string) string {
	parts := strings.Split(strings.TrimRight(pattern, "/"), "*")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return "^" + strings.Join(parts, "[^/]*") + "$"
}

// allowedOriginPatterns are the origins an act may open, as regular
// expressions: the base URL's and allowedOrigins.
func (r *Runner) allowedOriginPatterns() []string {
	var out []string
	if base, err := url.Parse(r.o.Config.BaseURL); err == nil && base.Host != "" {
		out = append(out, "^"+regexp.QuoteMeta(base.Scheme+"://"+base.Host)+"$")
	}
	for _, allowed := range r.o.Config.AllowedOrigins {
		out = append(out, originPattern(allowed))
	}
	return out
}

// isIDSegment says whether a path segment is an id, a number or a date
// (all digits; 8+ hex digits; a 36-character uuid; YYYY-MM-DD), which
// differ from run to run while the route stays the same.
func isIDSegment(s string) bool {
	if s == "" {
		return false
	}
	digits, hex, dashes := 0, 0, 0
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c >= 'a' && c <= 'f':
			hex++
		case c == '-':
			dashes++
		default:
			return false
		}
	}
	n := len(s)
	switch {
	case digits == n:
		return true
	case dashes == 0 && n >= 8:
		return true
	case n == 36 && dashes == 4:
		return true
	case n == 10 && dashes == 2 && hex == 0 && s[4] == '-' && s[7] == '-':
		return true
	}
	return false
}

// routeShape is the URL path with ids, numbers and dates reduced to shapes.
func routeShape(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	segs := strings.Split(p.Path, "/")
	for i, s := range segs {
		if isIDSegment(strings.ToLower(s)) {
			segs[i] = "{id}"
		}
	}
	return strings.Join(segs, "/")
}

// named lists `role "name"` of the snapshot's named nodes, in order.
func named(s *ax.Snapshot) []string {
	var out []string
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role != "text" && n.Name != "" {
			out = append(out, fmt.Sprintf("%s %q", n.Role, n.Name))
		}
		return true
	})
	return out
}

// evidenceOf records the end route and up to 8 elements that appeared and
// 8 that vanished during the act: what was on screen before proves nothing.
func evidenceOf(before, after *ax.Snapshot) session.Evidence {
	ev := session.Evidence{Route: routeShape(after.URL)}
	was, is := map[string]bool{}, map[string]bool{}
	for _, l := range named(before) {
		was[l] = true
	}
	for _, l := range named(after) {
		is[l] = true
		if !was[l] && len(ev.Appeared) < 8 && !contains(ev.Appeared, l) {
			ev.Appeared = append(ev.Appeared, l)
		}
	}
	for _, l := range named(before) {
		if !is[l] && len(ev.Vanished) < 8 && !contains(ev.Vanished, l) {
			ev.Vanished = append(ev.Vanished, l)
		}
	}
	return ev
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkEvidence says how the end state differs from the recorded evidence,
// or "" when the evidence holds: the same route shape, and what appeared
// during the recorded act is there again. clear is true when the evidence
// clearly fails (another route); missing elements alone are inconclusive.
func checkEvidence(ev session.Evidence, end *ax.Snapshot) (clear bool, why string) {
	if ev.Route != "" {
		if got := routeShape(end.URL); got != ev.Route {
			return true, fmt.Sprintf("the act ended at %s, not %s", got, ev.Route)
		}
	}
	now := map[string]bool{}
	for _, l := range named(end) {
		now[l] = true
	}
	var missing []string
	for _, l := range ev.Appeared {
		if !now[l] {
			missing = append(missing, l)
		}
	}
	if len(missing) > 0 {
		return false, "the end state lacks " + strings.Join(missing, ", ")
	}
	return false, ""
}

// maxPageText caps an outline kept with a heal.
const maxPageText = 64 << 10

// pageText is a snapshot's outline for a heal record, cut at a line
// boundary when it is very long. Snapshots reach here already redacted.
func pageText(s *ax.Snapshot) string {
	t := s.Text(ax.TextOptions{})
	if len(t) <= maxPageText {
		return t
	}
	cut := strings.LastIndexByte(t[:maxPageText], '\n')
	if cut < 0 {
		cut = maxPageText
	}
	return t[:cut] + "\n… (cut)"
}
