package session

import "fmt"

// A cache row holds lists that replay hands to the page (selectors,
// neighbour text, containers) or walks (steps, gaps). The page capture
// writes a few of each; a row with many more (a bad or hostile import)
// would hang the renderer at every replay of its step. A row over one of
// these bounds is refused by the import and read as a miss
// (MissOversizeRow), never replayed.
const (
	MaxSelectors        = 32        // CacheEntry.Selectors (a capture writes up to ~17)
	MaxSelectorBytes    = 16 << 10  // one selector's value
	MaxNodeAttrs        = 32        // NodeSnapshot.Attrs (a capture keeps up to 17)
	MaxNearTexts        = 16        // NodeContext.Near (a capture keeps up to 6)
	MaxPathNodes        = 16        // NodeContext.Path (a capture keeps up to 8)
	MaxIntentAttributes = 32        // Intent.Attributes
	MaxRelated          = 16        // Intent.Related
	MaxTrajectorySteps  = 1000      // Trajectory.Steps
	MaxEvidenceLines    = 32        // Evidence.Appeared and Evidence.Vanished each (a recording keeps up to 8)
	MaxGaps             = 1000      // Trajectory.Gaps
	maxRowText          = 256 << 10 // any other string of a row
)

// MissOversizeRow is the miss reason of a step whose cache row holds more
// than a bound allows (OversizeRowError); the reason as recorded reads
// "oversize-row: 100000 selectors, at most 32".
const MissOversizeRow = "oversize-row"

// OversizeRowError says which list of a cache row is over its bound. It
// matches ErrUnreadableRow (errors.Is): the runner counts the row as a
// miss and locates the element again, and the row the passing test writes
// replaces it.
type OversizeRowError struct {
	Field string // the row's field that holds it, as exported: "selectors", "context", "steps", …
	List  string // what is counted: "selectors", "context.near texts", "steps", …
	N     int    // how many it holds (bytes, for a text)
	Max   int
}

func (e *OversizeRowError) Error() string {
	return fmt.Sprintf("%d %s, at most %d", e.N, e.List, e.Max)
}

// Unwrap makes an oversize row an unreadable one.
func (e *OversizeRowError) Unwrap() error { return ErrUnreadableRow }

// MissReason is the step's miss reason for the row: MissOversizeRow and
// what is over.
func (e *OversizeRowError) MissReason() string { return MissOversizeRow + ": " + e.Error() }

// over returns an *OversizeRowError when n is over max.
func over(field, list string, n, max int) error {
	if n > max {
		return &OversizeRowError{Field: field, List: list, N: n, Max: max}
	}
	return nil
}

// CheckBounds returns an *OversizeRowError for the first list of e over
// its bound, or nil.
func (e *CacheEntry) CheckBounds() error {
	errs := []error{
		over("selectors", "selectors", len(e.Selectors), MaxSelectors),
		over("node", "node attributes", len(e.Node.Attrs), MaxNodeAttrs),
		over("context", "context.near texts", len(e.Context.Near), MaxNearTexts),
		over("context", "context.path containers", len(e.Context.Path), MaxPathNodes),
		over("intent", "intent attributes", len(e.Intent.Attributes), MaxIntentAttributes),
		over("intent", "intent relations", len(e.Intent.Related), MaxRelated),
	}
	for i, s := range e.Selectors {
		if err := over("selectors", fmt.Sprintf("bytes in selector %d", i+1), len(s.Value), MaxSelectorBytes); err != nil {
			errs = append(errs, err)
			break
		}
	}
	for _, t := range []struct{ field, s string }{{"text", e.Description}, {"node", e.Node.Text}, {"node", e.Node.Name}} {
		errs = append(errs, over(t.field, "bytes in one text", len(t.s), maxRowText))
	}
	for _, s := range e.Context.Near {
		errs = append(errs, over("context", "bytes in one text", len(s), maxRowText))
	}
	return firstErr(errs)
}

// CheckBounds returns an *OversizeRowError for the first list of t over
// its bound, or nil.
func (t *Trajectory) CheckBounds() error {
	return firstErr([]error{
		over("steps", "steps", len(t.Steps), MaxTrajectorySteps),
		over("evidence", "evidence lines that appeared", len(t.Evidence.Appeared), MaxEvidenceLines),
		over("evidence", "evidence lines that vanished", len(t.Evidence.Vanished), MaxEvidenceLines),
		over("gaps", "gaps", len(t.Gaps), MaxGaps),
	})
}

func firstErr(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
