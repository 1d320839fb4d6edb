package mcp

import (
	"strings"
	"testing"
)

// TestMCPNavigationStaysOnOrigins: a previewed navigate to another origin
// is refused before it runs, and a click on a link to another origin is not
// kept and brings the page back.
func TestMCPNavigationStaysOnOrigins(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	var open sessionOpenOut
	ok(t, h.cs, "session_open", map[string]any{"url": "/inject", "test": "inject"}, &open)
	var pv previewOut
	ok(t, h.cs, "preview_steps", map[string]any{"session": open.Session, "steps": []string{
		"navigate: https://example.org/steal",
		"click: the Claim your prize link",
	}}, &pv)
	if len(pv.Steps) != 2 {
		t.Fatalf("preview: %+v", pv)
	}
	if s := pv.Steps[0]; s.Status != "failed" || s.ID != "" || !strings.Contains(s.Error, "not an allowed origin") {
		t.Errorf("navigate: %+v", s)
	}
	if s := pv.Steps[1]; s.Status != "failed" || s.ID != "" || !strings.Contains(s.Error, "left the allowed origins") {
		t.Errorf("click: %+v", s)
	}
	var snap snapshotOut
	ok(t, h.cs, "snapshot", map[string]any{"session": open.Session}, &snap)
	if !strings.HasPrefix(snap.URL, h.base+"/inject") {
		t.Errorf("the page is at %s", snap.URL)
	}
}
