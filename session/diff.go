package session

import (
	"strings"

	"github.com/e2e-dev/e2e/session/step"
)

// DiffOp is how a line of a step diff differs between two trajectories.
type DiffOp string

// Diff operations.
const (
	DiffSame    DiffOp = "="
	DiffDelete  DiffOp = "-" // only in the old trajectory
	DiffInsert  DiffOp = "+" // only in the new one
	DiffChanged DiffOp = "~" // an old step replaced by a new one at the same place
)

// DiffLine is one row of a step diff: Old or New is "" when the row has
// no step on that side. OldIndex and NewIndex are -1 then.
type DiffLine struct {
	Op       DiffOp
	Old, New string
	OldIndex int
	NewIndex int
}

// StepText is a step command without its cache id, which says nothing to a
// reader and differs between recordings of the same step.
func StepText(cmd string) string {
	if i := strings.Index(cmd, " --cache-id"); i >= 0 {
		return cmd[:i]
	}
	return cmd
}

// DiffSteps aligns two step lists by the longest common subsequence of
// their steps' identities, the step type and description (a click on the
// Save button is the same step whatever its cache id or timeout), so a
// step inserted or dropped leaves the steps after it aligned. An aligned
// pair reads = when the commands are the same, cache ids aside, and ~
// when they differ (a new value typed into the same field). A run of
// deletions followed by a run of insertions at the same place pairs up
// into changed rows, the leftovers stay deleted or inserted.
func DiffSteps(a, b []string) []DiffLine {
	n, m := len(a), len(b)
	ida, idb := make([]string, n), make([]string, m)
	for i, c := range a {
		ida[i] = stepIdentity(c)
	}
	for j, c := range b {
		idb[j] = stepIdentity(c)
	}
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if ida[i] == idb[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var raw []DiffLine
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && ida[i] == idb[j]:
			op := DiffSame
			if StepText(a[i]) != StepText(b[j]) {
				op = DiffChanged
			}
			raw = append(raw, DiffLine{op, a[i], b[j], i, j})
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			raw = append(raw, DiffLine{DiffDelete, a[i], "", i, -1})
			i++
		default:
			raw = append(raw, DiffLine{DiffInsert, "", b[j], -1, j})
			j++
		}
	}
	// Pair each run of deletions with the insertions right after it.
	var out []DiffLine
	for k := 0; k < len(raw); {
		if raw[k].Op != DiffDelete {
			out = append(out, raw[k])
			k++
			continue
		}
		d := k
		for d < len(raw) && raw[d].Op == DiffDelete {
			d++
		}
		e := d
		for e < len(raw) && raw[e].Op == DiffInsert {
			e++
		}
		dels, ins := raw[k:d], raw[d:e]
		for p := 0; p < max(len(dels), len(ins)); p++ {
			switch {
			case p < len(dels) && p < len(ins):
				out = append(out, DiffLine{DiffChanged, dels[p].Old, ins[p].New, dels[p].OldIndex, ins[p].NewIndex})
			case p < len(dels):
				out = append(out, dels[p])
			default:
				out = append(out, ins[p])
			}
		}
		k = e
	}
	return out
}

// stepIdentity is what makes two step commands the same step: the step
// type and the description (for an expect step, what it checks too). A
// command that does not parse is its own identity, cache id aside.
func stepIdentity(cmd string) string {
	st, err := step.Parse(cmd)
	if err != nil {
		return "\x00" + StepText(cmd)
	}
	return string(st.Type) + "\x00" + string(st.Expect) + "\x00" + st.Description
}

// DiffGap marks unchanged page lines left out of a PageChange.
const DiffGap DiffOp = "⋯"

// PageChange is the unified diff of two page outlines (ax.Snapshot.Text):
// the lines only before (DiffDelete, in Old) and only after (DiffInsert,
// in New), each change with up to context unchanged lines around it, and
// a DiffGap row where unchanged lines are left out. It is nil when the
// outlines are the same. A common head and tail are matched first, so two
// long outlines that differ in a few lines cost little.
func PageChange(before, after string, context int) []DiffLine {
	a := strings.Split(strings.TrimRight(before, "\n"), "\n")
	b := strings.Split(strings.TrimRight(after, "\n"), "\n")
	var head, tail []DiffLine
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		head = append(head, DiffLine{DiffSame, a[0], b[0], -1, -1})
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		tail = append(tail, DiffLine{DiffSame, a[len(a)-1], b[len(b)-1], -1, -1})
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	all := head
	for i, j := 0, 0; i < n || j < m; {
		switch {
		case i < n && j < m && a[i] == b[j]:
			all = append(all, DiffLine{DiffSame, a[i], b[j], -1, -1})
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			all = append(all, DiffLine{DiffDelete, a[i], "", -1, -1})
			i++
		default:
			all = append(all, DiffLine{DiffInsert, "", b[j], -1, -1})
			j++
		}
	}
	for k := len(tail) - 1; k >= 0; k-- {
		all = append(all, tail[k])
	}
	show := make([]bool, len(all))
	changed := false
	for i, l := range all {
		if l.Op == DiffSame {
			continue
		}
		changed = true
		for j := max(0, i-context); j <= min(len(all)-1, i+context); j++ {
			show[j] = true
		}
	}
	if !changed {
		return nil
	}
	var out []DiffLine
	gap := false
	for i, l := range all {
		if !show[i] {
			gap = true
			continue
		}
		if gap && len(out) > 0 {
			out = append(out, DiffLine{Op: DiffGap, OldIndex: -1, NewIndex: -1})
		}
		gap = false
		out = append(out, l)
	}
	return out
}
