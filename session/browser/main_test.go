package browser

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/fixture"
)

// shared is one browser for the package's tests; each test opens its own
// page (and so its own browser context).
var shared *Browser

// TestMain launches the shared browser, except under -short, where every
// test that asks for a browser (ctxT, newPage, fixtureURL, serveHTML) is
// skipped.
func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		os.Exit(m.Run())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	b, err := Launch(ctx, Options{})
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "browser tests need Chromium:", err)
		os.Exit(1)
	}
	shared = b
	code := m.Run()
	b.Close()
	os.Exit(code)
}

// browserTest is called by the helpers that give a test a page or a
// server for one (newPage, fixtureURL, serveHTML): under -short it skips the
// test; otherwise it runs the test in parallel with the package's other
// parallel tests. Every test here has its own pages (so its own browser
// context) and servers, and mostly waits on the page, so tests side by side
// use the machine's cores; how many run at once is go test's -parallel
// (GOMAXPROCS by default). A test that changed the process first
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

// fixtureURL serves the fixture app for one test and returns its base URL.
func fixtureURL(t testing.TB, variants ...string) string {
	t.Helper()
	browserTest(t)
	srv := httptest.NewServer(fixture.Handler(fixture.Options{Variants: variants}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// newPage opens a page that the test closes when it ends.
func newPage(t testing.TB) *Page {
	t.Helper()
	browserTest(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p, err := shared.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// serveHTML serves one page of HTML at / and returns its URL.
func serveHTML(t testing.TB, html string) string {
	t.Helper()
	browserTest(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, html)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// ctxT is a context for one browser call of t (skipped under -short).
func ctxT(t testing.TB) context.Context {
	if testing.Short() {
		t.Skip("needs a browser (-short)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// open navigates p to url and waits for it to settle.
func open(t testing.TB, p *Page, url string) {
	t.Helper()
	ctx := ctxT(t)
	if _, err := p.Navigate(ctx, url); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Settle(ctx, SettleOptions{Quiet: 50 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
}
