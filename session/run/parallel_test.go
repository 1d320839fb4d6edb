package run

import (
	"sync"
	"testing"
)

// parallelTests holds the tests browserTest marked parallel.
var parallelTests sync.Map

// browserTest is called by every helper that gives a test the browser
// (newEnv, newZooHarness, nearMissPage, runPairs): under -short it skips the
// test; otherwise it marks it parallel, once however many helpers ask. Each
// such test has its own fixture server, store and browser contexts on the
// shared browser, and spends most of its time waiting on the page (settle
// windows, step timeouts), so the package's tests run side by side, as many
// as go test's -parallel (GOMAXPROCS by default). A test that changes the
// process (t.Setenv, t.Chdir) cannot be parallel: it must not use these
// helpers. Benchmarks pass through unmarked.
func browserTest(tb testing.TB) {
	tb.Helper()
	if testing.Short() {
		tb.Skip("needs a browser (-short)")
	}
	t, ok := tb.(*testing.T)
	if !ok {
		return
	}
	if _, done := parallelTests.LoadOrStore(t, true); !done {
		t.Parallel()
	}
}
