package browser

import (
	"errors"
	"strings"
	"testing"
)

// TestNavigationDuringACallIsSaidInPlainWords: a call waiting on the page
// when it navigates away ends with ErrNavigated and plain words, never
// CDP's raw "{-32000 Inspected target navigated or closed }".
func TestNavigationDuringACallIsSaidInPlainWords(t *testing.T) {
	base := fixtureURL(t)
	p := newPage(t)
	open(t, p, base+"/login")
	// The page leaves 100 ms from now, while the next call still waits on it.
	must(t, p.Eval(ctxT(t), nil, `() => { setTimeout(() => { location.href = '/users'; }, 100); }`))
	err := p.Eval(ctxT(t), nil, `() => new Promise((resolve) => setTimeout(resolve, 5000))`)
	if !errors.Is(err, ErrNavigated) {
		t.Fatalf("got %v, want ErrNavigated", err)
	}
	if msg := err.Error(); strings.Contains(msg, "-32000") || strings.Contains(msg, "{") || !strings.Contains(msg, "the page navigated or closed") {
		t.Errorf("message %q", msg)
	}
	// The page is usable in its new document.
	open(t, p, base+"/users")
	find(t, snap(t, p, SnapshotOptions{}), "heading", "Users")
}
