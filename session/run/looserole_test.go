package run

import (
	"net/http/httptest"
	"testing"

	"github.com/e2e-dev/e2e/session/fixture"
)

// TestRelocateKeepsTheRecordedRole: "click: the Sign in button" is recorded
// on the login form's button; the button is renamed "Log in" (pair
// login-submit-reworded), so the cache misses, and the only "Sign in" left
// is the header's link, which "button" fits only loosely. Re-locating to it
// would reload the login page instead of signing in: the step must end in a
// miss, or on the button, never on the link.
func TestRelocateKeepsTheRecordedRole(t *testing.T) {
	var pair fixture.Pair
	for _, p := range fixture.Pairs {
		if p.Name == "login-submit-reworded" {
			pair = p
		}
	}
	if pair.Name == "" {
		t.Fatal("no pair login-submit-reworded")
	}
	srv := httptest.NewServer(fixture.Handler(fixture.Options{}))
	t.Cleanup(srv.Close)
	r := measurePair(t, srv.URL, pair)
	if r.Err != "" {
		t.Fatal(r.Err)
	}
	if r.Locator.Outcome == pairWrong || r.Check.Outcome == pairWrong {
		t.Errorf("the reworded Sign in button: check %s, locator %s (%s), want a miss or %s", r.Check.Outcome, r.Locator.Outcome, r.Locator.Key, pair.After)
	}
}
