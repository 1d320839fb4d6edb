package main

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/e2e-dev/e2e/session/browser"
)

// The package's in-process commands share one browser: launchBrowser
// connects them to it (as --browser-url would), and each command's pages
// open in browser contexts of their own, as they do in a browser it
// launches. Starting Chromium costs a couple of CPU seconds; the package
// runs a few hundred commands. A command whose options name a browser of
// their own (--chrome, --headed, --browser-url, browser.chrome) launches
// as it always does, and so does every command of a test that calls
// ownBrowser (it checks what a launch leaves behind). Child processes of
// e2eEnv connect to it through sharedBrowserEnv.
var shared struct {
	once sync.Once
	b    *browser.Browser
	err  error
	own  sync.Map // test name → true: its commands launch their own browser
}

// sharedBrowserEnv names the shared browser's DevTools address in a child
// process's environment.
const sharedBrowserEnv = "E2E_TEST_SHARED_BROWSER"

// useSharedBrowser points launchBrowser at the shared browser (started on
// first use); url, when set, is one another process started.
func useSharedBrowser(url string) {
	launchBrowser = func(ctx context.Context, o browser.Options) (*browser.Browser, error) {
		if o.BrowserURL != "" || o.Chrome != "" || o.Headed || os.Getenv("E2E_CHROME") != "" || ownsBrowser(ctx) {
			return browser.Launch(ctx, o)
		}
		if o.BrowserURL = url; url == "" {
			if o.BrowserURL = sharedURL(); o.BrowserURL == "" {
				return nil, shared.err
			}
		}
		return browser.Launch(ctx, o)
	}
}

// closeSharedBrowser ends the shared browser, when one was started.
func closeSharedBrowser() {
	if shared.b != nil {
		shared.b.Close()
	}
}

// sharedBrowserProfile is the shared browser's profile directory ("" when
// none runs): its processes are not a command's leftovers.
func sharedBrowserProfile() string {
	if shared.b == nil {
		return ""
	}
	return shared.b.ProfileDir()
}

// ownBrowser makes every command t (and its subtests) runs launch a
// browser of its own.
func ownBrowser(t *testing.T) {
	shared.own.Store(t.Name(), true)
	t.Cleanup(func() { shared.own.Delete(t.Name()) })
}

type testKey struct{}

// withTest marks ctx as a command's of t.
func withTest(ctx context.Context, t *testing.T) context.Context {
	return context.WithValue(ctx, testKey{}, t.Name())
}

// ownsBrowser says whether the command of ctx belongs to a test that
// called ownBrowser.
func ownsBrowser(ctx context.Context) bool {
	name, _ := ctx.Value(testKey{}).(string)
	for name != "" {
		if _, ok := shared.own.Load(name); ok {
			return true
		}
		i := strings.LastIndex(name, "/")
		if i < 0 {
			break
		}
		name = name[:i]
	}
	return false
}

// sharedURL is the shared browser's DevTools address for a child process,
// starting it if need be; "" when it cannot start (the child launches its
// own, and says why if that fails too).
func sharedURL() string {
	shared.once.Do(func() { shared.b, shared.err = browser.Launch(context.Background(), browser.Options{}) })
	if shared.err != nil {
		return ""
	}
	return shared.b.ControlURL()
}
