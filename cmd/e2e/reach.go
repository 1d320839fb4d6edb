package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"syscall"
	"time"

	"github.com/e2e-dev/e2e/session/testfile"
)

// appDialTimeout bounds the one connection checkApp opens.
const appDialTimeout = 5 * time.Second

// checkApp makes sure, once and before a browser starts or anything is
// recorded, that something listens at the base URL: an app that is not
// running would otherwise fail every test, each with its own "connection
// refused", and leave a run in the history. It opens one TCP connection
// (no request is sent). When nothing answers it returns one usage error
// (exit 2) that names where the URL came from (--base-url, when fromFlag,
// else baseURL at its line in e2e.yaml) and what to do. It checks nothing
// with no base URL, with --browser-url (that browser may see other hosts
// than this machine) or when a proxy from the environment reaches the URL.
func checkApp(ctx context.Context, g *globals, cfg *testfile.Config, fromFlag bool) error {
	if g.browserURL != "" || cfg.BaseURL == "" {
		return nil
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return nil // the configuration's own checks say what is wrong
	}
	if p, err := http.ProxyFromEnvironment(&http.Request{URL: u}); err != nil || p != nil {
		return nil
	}
	why := dialApp(ctx, u)
	if why == "" {
		return nil
	}
	fixture := "; to try e2e on its own fixture app, run `e2e fixture serve` (it serves http://127.0.0.1:8080) in another terminal"
	if fromFlag {
		todo := "start the app, or point --base-url at where it runs" + fixture
		return &exitError{code: exitUsage, err: fmt.Errorf("--base-url %s: nothing answers there (%s): %s", cfg.BaseURL, why, todo)}
	}
	where := "e2e.yaml"
	if cfg.File != "" {
		where = cfg.File
	}
	todo := "start the app, or set baseURL (or pass --base-url) to where it runs" + fixture
	err = cfg.Problem("baseURL", fmt.Sprintf("nothing answers at %s (%s): %s", cfg.BaseURL, why, todo))
	if _, ok := errors.AsType[testfile.List](err); ok {
		return err // at its line in the file, with the line shown
	}
	return &exitError{code: exitUsage, err: fmt.Errorf("%s: %w", where, err)}
}

// dialApp connects to u's host and port and returns why it could not, in
// a few words, or "".
func dialApp(ctx context.Context, u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	d := net.Dialer{Timeout: appDialTimeout}
	c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(u.Hostname(), port))
	if err == nil {
		c.Close()
		return ""
	}
	var dns *net.DNSError
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.As(err, &dns):
		return "no such host " + u.Hostname()
	case errors.As(err, &ne) && ne.Timeout() || errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Sprintf("no answer within %s", appDialTimeout)
	}
	return unwrapOp(err).Error()
}
