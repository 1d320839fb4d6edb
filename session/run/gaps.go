package run

import (
	"context"
	"slices"
	"strings"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/step"
)

// seenSnapshot is a snapshot the agent was given during an act, and how
// many of its commands had succeeded by then.
type seenSnapshot struct {
	snap *ax.Snapshot
	done int
}

// gaps finds the values of the recorded steps that the agent read off the
// screen: the value of a TYPE or SELECT step that neither the test nor a
// variable supplied, and that the accessible name of an element showed
// before the step ran. Each becomes a Gap that replay reads again.
func (e *actEnv) gaps(steps []string) []session.Gap {
	given, u := e.tr.test.Steps, e.tr.test.URL
	if f := e.tr.flow; f != nil {
		given, u = f.steps, f.def.URL
	}
	known := e.tr.context() + "\n" + e.goal + "\n" + u
	for _, st := range given {
		known += "\n" + st.Step.Description + "\n" + st.Step.Value
	}
	var out []session.Gap
	used := make([]bool, len(e.done))
	for _, cmd := range steps {
		st, err := step.Parse(cmd)
		if err != nil || (st.Type != step.TypeText && st.Type != step.Select) {
			continue
		}
		v := st.Value
		if strings.TrimSpace(v) == "" || strings.Contains(v, "{{") || strings.Contains(known, v) {
			continue
		}
		// The execution of this step: the first unused one with its command.
		at := -1
		for j, d := range e.done {
			if !used[j] && d == cmd {
				used[j], at = true, j
				break
			}
		}
		if at < 0 {
			continue
		}
		for k := len(e.seen) - 1; k >= 0; k-- {
			seen := e.seen[k]
			if seen.done > at {
				continue // seen after the step ran: it may show what was typed
			}
			if g, ok := gapIn(seen.snap, v); ok {
				g.At = seen.done
				out = append(out, g)
				break
			}
		}
	}
	return out
}

// gapIn finds the element of s whose accessible name shows v (an exact
// name first) and describes how to find it again.
func gapIn(s *ax.Snapshot, v string) (session.Gap, bool) {
	var best *ax.Node
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "text" || n.Role == "textbox" || n.Role == "searchbox" || n.Role == "combobox" || !strings.Contains(n.Name, v) {
			return true
		}
		if best == nil || (n.Name == v && best.Name != v) {
			best = n
		}
		return best.Name != v
	})
	if best == nil {
		return session.Gap{}, false
	}
	i := strings.Index(best.Name, v)
	g := session.Gap{Value: v, Role: best.Role, Before: best.Name[:i], After: best.Name[i+len(v):]}
	for _, n := range gapCandidates(s, g) {
		if n == best {
			break
		}
		g.Nth++
	}
	return g, true
}

// gapCandidates are the nodes of s that could hold g's value: its role,
// and a name with g's text before and after something.
func gapCandidates(s *ax.Snapshot, g session.Gap) []*ax.Node {
	var out []*ax.Node
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == g.Role && len(n.Name) > len(g.Before)+len(g.After) &&
			strings.HasPrefix(n.Name, g.Before) && strings.HasSuffix(n.Name, g.After) {
			out = append(out, n)
		}
		return true
	})
	return out
}

// gapValues are the gaps of a trajectory read during its replay, by index.
type gapValues map[int]string

// readAt reads, from the page as it is now, the gaps that were read after
// the first at steps. A gap whose element is gone keeps its recorded value.
func (r gapValues) readAt(ctx context.Context, env *actEnv, gaps []session.Gap, at int) error {
	if !slices.ContainsFunc(gaps, func(g session.Gap) bool { return g.At == at }) {
		return nil
	}
	s, err := env.Snapshot(ctx)
	if err != nil {
		return err
	}
	for i, g := range gaps {
		if g.At != at {
			continue
		}
		if ns := gapCandidates(s, g); g.Nth < len(ns) {
			n := ns[g.Nth]
			r[i] = n.Name[len(g.Before) : len(n.Name)-len(g.After)]
		}
	}
	return nil
}

// fill puts the values read into a recorded step command's value.
func (r gapValues) fill(cmd string, gaps []session.Gap) string {
	if len(r) == 0 {
		return cmd
	}
	st, err := step.Parse(cmd)
	if err != nil {
		return cmd
	}
	for i, g := range gaps {
		if v, ok := r[i]; ok && st.Value == g.Value {
			st.Value = v
			return st.String()
		}
	}
	return cmd
}

// fillText replaces recorded gap values in text with the values read.
func (r gapValues) fillText(text string, gaps []session.Gap) string {
	for i, g := range gaps {
		if v, ok := r[i]; ok {
			text = strings.ReplaceAll(text, g.Value, v)
		}
	}
	return text
}

// fillEvidence is fillText for recorded evidence.
func (r gapValues) fillEvidence(ev session.Evidence, gaps []session.Gap) session.Evidence {
	if len(r) == 0 {
		return ev
	}
	out := session.Evidence{Route: r.fillText(ev.Route, gaps)}
	for _, s := range ev.Appeared {
		out.Appeared = append(out.Appeared, r.fillText(s, gaps))
	}
	for _, s := range ev.Vanished {
		out.Vanished = append(out.Vanished, r.fillText(s, gaps))
	}
	return out
}

// headGaps are the gaps of a trajectory that a heal keeps with the head of
// its steps: those read before, and typed or chosen by, a head step.
func headGaps(gaps []session.Gap, head []string) []session.Gap {
	var out []session.Gap
	for _, g := range gaps {
		for i := g.At; i < len(head); i++ {
			if st, err := step.Parse(head[i]); err == nil && st.Value == g.Value {
				out = append(out, g)
				break
			}
		}
	}
	return out
}
