package mcp

import (
	"strings"
	"testing"
)

// TestPreviewMissOnASettledPage: a description that matches nothing on a
// page that has settled is answered at once, marked settled, not after the
// step timeout; the local locator's nearest elements still come with it.
func TestPreviewMissOnASettledPage(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	var open sessionOpenOut
	ok(t, h.cs, "session_open", map[string]any{"url": "/product"}, &open)
	var pv previewOut
	ok(t, h.cs, "preview_steps", map[string]any{"session": open.Session, "steps": []string{"click: the Launch rocket button"}}, &pv)
	if len(pv.Steps) != 1 {
		t.Fatalf("preview: %+v", pv)
	}
	st := pv.Steps[0]
	if st.Status != "failed" || st.Reason != "no-match" || !st.Settled || !strings.Contains(st.Error, "on the settled page") {
		t.Errorf("a miss on a settled page: status %q, reason %q, settled %v, error %q", st.Status, st.Reason, st.Settled, st.Error)
	}
}

// TestPreviewBatchWithBadSteps: steps that do not parse do not reject the
// batch: each is reported in its place, with its index and every problem
// it has, and the others run (and are kept).
func TestPreviewBatchWithBadSteps(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	var open sessionOpenOut
	ok(t, h.cs, "session_open", map[string]any{"url": "/product"}, &open)
	var pv previewOut
	ok(t, h.cs, "preview_steps", map[string]any{"session": open.Session, "steps": []string{
		"clik: the Add to cart button",
		"click: the Add to cart button",
		"tpye: { into: the Search field, txt: shoes }",
		"expect: { text: { in: the cart status, is: \"Cart: 1 item\" } }",
	}}, &pv)
	if len(pv.Steps) != 4 {
		t.Fatalf("want 4 steps reported: %+v", pv)
	}
	for i, st := range pv.Steps {
		if st.Index != i {
			t.Errorf("step %d has index %d", i, st.Index)
		}
	}
	if s := pv.Steps[0]; s.Status != "invalid" || s.ID != "" || !strings.Contains(s.Error, "did you mean click?") {
		t.Errorf("steps[0]: %+v", s)
	}
	if s := pv.Steps[2]; s.Status != "invalid" || !strings.Contains(s.Error, "did you mean type?") || !strings.Contains(s.Error, `"txt"`) {
		t.Errorf("steps[2], want both its problems: %+v", s)
	}
	if s := pv.Steps[1]; s.Status == "failed" || s.Status == "invalid" || s.ID != "p1" {
		t.Errorf("steps[1] did not run: %+v", s)
	}
	if s := pv.Steps[3]; s.Status == "failed" || s.Status == "invalid" || s.ID != "p2" {
		t.Errorf("steps[3] did not run: %+v", s)
	}
}
