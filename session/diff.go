package session

import "strings"

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

// DiffSteps aligns two step lists by their longest common subsequence,
// cache ids ignored. A run of deletions followed by a run of insertions at
// the same place pairs up into changed rows, the leftovers stay deleted or
// inserted.
func DiffSteps(a, b []string) []DiffLine {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if StepText(a[i]) == StepText(b[j]) {
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
		case i < n && j < m && StepText(a[i]) == StepText(b[j]):
			raw = append(raw, DiffLine{DiffSame, a[i], b[j], i, j})
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
