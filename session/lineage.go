package session

// Lineage says where in git history a run stands, for the caches: every row
// it writes carries Branch, Commit and Version, and what it reads is chosen
// by them (see the store's lookup). The zero Lineage (no git) reads and
// writes rows with no branch.
type Lineage struct {
	Branch  string // the branch checked out ("" outside git)
	Commit  string // HEAD's full hash
	Depth   int    // commits on HEAD's first-parent chain, HEAD included
	Main    string // the main branch's name, e.g. "main"
	Version string // the tool's version: rows of a newer version are never read
	// BaseDepth is the depth, on Main's first-parent chain, of the newest
	// commit of that chain that HEAD contains (the merge base): Main's rows
	// written at or before it are what the branch inherits. On Main it is
	// Depth; -1 when HEAD shares no commit with Main.
	BaseDepth int
	// Merged are commits that recent merge commits on Main brought in
	// (reachable from a merge's second parent, not from its first): on
	// Main, rows written at them are read before Main's own.
	Merged []string
}

// OnMain reports whether HEAD is on the main branch.
func (l Lineage) OnMain() bool { return l.Branch == l.Main }
