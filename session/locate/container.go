package locate

import "github.com/e2e-dev/e2e/session/ax"

// Container is the nearest of ancestors (nearest last, as a Candidate
// holds them) that tells an element apart from others like it: a named
// row, list item, dialog, form, region… the containers an ambiguity's
// detail names. It is nil when there is none.
func Container(ancestors []*ax.Node) *ax.Node {
	for i := len(ancestors) - 1; i >= 0; i-- {
		if a := ancestors[i]; a != nil && contextRoles[a.Role] && a.Name != "" {
			return a
		}
	}
	return nil
}
