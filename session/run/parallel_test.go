package run

import "testing"

// browserTest is called by every helper that gives a test the browser
// (newEnv, newZooHarness, nearMissPage, runPairs, measurePair): under
// -short it skips the test; otherwise it runs the test in parallel with the
// package's other parallel tests. Each such test has its own fixture
// server, store and browser contexts on the shared browser, and spends most
// of its time waiting on the page (settle windows, step timeouts), so tests
// side by side use the machine's cores; how many run at once is go test's
// -parallel (GOMAXPROCS by default). A test that changed the process first
// (t.Setenv, t.Chdir) stays sequential; one that changes it after cannot
// (t.Setenv panics). Benchmarks pass through.
func browserTest(tb testing.TB) {
	tb.Helper()
	if testing.Short() {
		tb.Skip("needs a browser (-short)")
	}
	if t, ok := tb.(*testing.T); ok {
		parallel(t)
	}
}

// parallel marks t parallel, unless it is already or it changed the
// process (t.Setenv, t.Chdir): t.Parallel refuses both with a panic, before
// it changes anything, which is recovered here.
func parallel(t *testing.T) {
	defer func() { _ = recover() }()
	t.Parallel()
}
