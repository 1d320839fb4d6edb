package run

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// allowList is what pages may be on: the base URL's origin and the
// configured allowedOrigins, compiled once for a runner.
type allowList struct {
	base     string           // the base URL's origin, "" when there is none
	patterns []*regexp.Regexp // allowedOrigins
}

func newAllowList(baseURL string, allowed []string) *allowList {
	a := &allowList{}
	if base, err := url.Parse(baseURL); err == nil && base.Host != "" {
		a.base = strings.ToLower(base.Scheme + "://" + base.Host)
	}
	for _, p := range allowed {
		if re, err := regexp.Compile(originPattern(p)); err == nil {
			a.patterns = append(a.patterns, re)
		}
	}
	return a
}

// allows says whether origin (scheme://host[:port]) is the base URL's or
// matches an allowedOrigins pattern.
func (a *allowList) allows(origin string) bool {
	if origin == a.base {
		return true
	}
	for _, re := range a.patterns {
		if re.MatchString(origin) {
			return true
		}
	}
	return false
}

// originOf is the origin of an http(s) address, lowercase, and whether u
// is one: other schemes (about:blank, data:, file:, the browser's error
// page) have no origin a test is bound to.
func originOf(u string) (string, bool) {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return "", false
	}
	scheme = strings.ToLower(scheme)
	if scheme != "http" && scheme != "https" {
		return "", false
	}
	host := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		host = rest[:i]
	}
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:] // user info is not part of the origin
	}
	return scheme + "://" + strings.ToLower(host), true
}

// OffOriginError is a step that did not run because the page is on an
// origin the test may not be on: a page that sent itself elsewhere (a
// redirect, a link, a script) after the test opened it.
type OffOriginError struct {
	URL    string // where the page is
	Origin string
}

func (e *OffOriginError) Error() string {
	return fmt.Sprintf("the page left the allowed origins: it is at %s (%s is neither the base URL's origin nor in allowedOrigins in e2e.yaml); nothing was typed, clicked or sent to the model there", e.URL, e.Origin)
}

// offOrigin returns an *OffOriginError when u is on an origin the test may
// not be on: not the base URL's, not an allowedOrigins entry, and not one
// the test opened itself (its url: and navigate: steps). An origin found
// allowed once is remembered, so that the check on every step costs a
// string comparison.
func (r *Runner) offOrigin(tr *testRun, u string) error {
	origin, ok := originOf(u)
	if !ok || origin == tr.okOrigin {
		return nil
	}
	if r.o.allow.allows(origin) || tr.opened[origin] {
		tr.okOrigin = origin
		return nil
	}
	return &OffOriginError{URL: u, Origin: origin}
}

// pageOffOrigin checks where the page was last seen (its navigations and
// the last call into it; no call to the browser): see offOrigin.
func (r *Runner) pageOffOrigin(tr *testRun) error {
	return r.offOrigin(tr, tr.page.LastURL())
}

// pageOffOriginNow checks where the page is, as the browser holds it (one
// call to it), before what the page holds leaves for a model.
func (r *Runner) pageOffOriginNow(ctx context.Context, tr *testRun) error {
	u, err := tr.page.MainFrameURL(ctx)
	if err != nil {
		return err
	}
	return r.offOrigin(tr, u)
}

// opens notes that the test itself opens u (its url: or a navigate: step):
// the page may be on u's origin.
func (tr *testRun) opens(u string) {
	if origin, ok := originOf(u); ok {
		if tr.opened == nil {
			tr.opened = map[string]bool{}
		}
		tr.opened[origin] = true
	}
}

// guardSecrets makes the test's page refuse to type a secret anywhere the
// test may not be (see browser.Page.GuardSecrets).
func (r *Runner) guardSecrets(tr *testRun) {
	tr.page.GuardSecrets(func(u string) string {
		if err := r.offOrigin(tr, u); err != nil {
			o, _ := originOf(u)
			return o + " is not an allowed origin"
		}
		return ""
	})
}
