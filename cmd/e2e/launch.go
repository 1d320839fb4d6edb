package main

import "github.com/e2e-dev/e2e/session/browser"

// launchBrowser starts the browser a command uses, or connects to the one
// its options name (--browser-url). Every command that needs a browser
// calls it; the package's tests point it at one browser they share, so
// that each in-process command gets its own browser contexts without
// starting a browser of its own.
var launchBrowser = browser.Launch
