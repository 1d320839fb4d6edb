package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/browser"
)

type snapshotFlags struct {
	interactiveOnly bool
	scope           string
	asJSON          bool
	maxNodes        int
	maxText         int
	maxTotalText    int
	timeout         time.Duration
	settleQuiet     time.Duration
	settleMax       time.Duration
	config          string
	baseURL         string
}

func newSnapshotCmd(g *globals) *cobra.Command {
	f := &snapshotFlags{}
	cmd := &cobra.Command{
		Use:   "snapshot URL|PATH",
		Short: "Print a page's accessibility snapshot, the outline the agent reads",
		Example: `  e2e snapshot http://localhost:8080/login
  e2e snapshot /login                      # under the baseURL of e2e.yaml
  e2e snapshot --interactive-only https://example.test/app
  e2e snapshot --scope e12 --json http://localhost:8080/users`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			raw, err := f.pageURL(args[0])
			if err != nil {
				return err
			}
			u, err := normalizeURL(raw)
			if err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), f.timeout+f.settleMax+30*time.Second)
			defer cancel()
			b, err := launchBrowser(ctx, g.browserOptions())
			if err != nil {
				return err
			}
			defer b.Close()
			s, err := snapshotURL(ctx, b, u, f, cmd)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if f.asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(s)
			}
			fmt.Fprint(out, s.Text(ax.TextOptions{InteractiveOnly: f.interactiveOnly}))
			return nil
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.interactiveOnly, "interactive-only", false, "show only interactable elements and the containers around them")
	fl.StringVar(&f.scope, "scope", "", "snapshot only the subtree of this ref (refs are in the output of a previous snapshot)")
	fl.BoolVar(&f.asJSON, "json", false, "print the snapshot as JSON (with boxes, colours and refs on every node)")
	fl.IntVar(&f.maxNodes, "max-nodes", 5000, "cap the snapshot at this many nodes (0: no cap)")
	fl.IntVar(&f.maxText, "max-text", browser.DefaultMaxText, "cut each name, text, value and URL at this many characters (0: no cap)")
	fl.IntVar(&f.maxTotalText, "max-total-text", browser.DefaultMaxTotalText, "cut the snapshot's text once it reaches this many characters in all (0: no cap)")
	fl.DurationVar(&f.timeout, "timeout", 30*time.Second, "navigation timeout")
	fl.DurationVar(&f.settleQuiet, "settle-quiet", 300*time.Millisecond, "the page must be quiet (no DOM change, no fetch/XHR) this long")
	fl.DurationVar(&f.settleMax, "settle-max", 10*time.Second, "give up when the page has not settled after this long")
	fl.StringVar(&f.config, "config", "", "directory to look for e2e.yaml from, for a PATH (default: the current directory)")
	fl.StringVar(&f.baseURL, "base-url", "", "base URL for a PATH (overrides e2e.yaml)")
	return cmd
}

// pageURL is the URL to open for arg: a path (/login) under --base-url or
// the baseURL of e2e.yaml, as a test's url: is; anything else as given.
func (f *snapshotFlags) pageURL(arg string) (string, error) {
	if !strings.HasPrefix(arg, "/") || strings.HasPrefix(arg, "//") {
		return arg, nil
	}
	base := f.baseURL
	if base == "" {
		cfg, err := loadConfig(f.config)
		if err != nil {
			return "", err
		}
		base = cfg.BaseURL
	}
	if base == "" {
		return "", fmt.Errorf("%s is a path and no e2e.yaml here has a baseURL: give a whole URL (http://localhost:8080%s), pass --base-url, or run it in the project (--config DIR)", arg, arg)
	}
	return strings.TrimRight(base, "/") + arg, nil
}

func snapshotURL(ctx context.Context, b *browser.Browser, u string, f *snapshotFlags, cmd *cobra.Command) (*ax.Snapshot, error) {
	p, err := b.NewPage(ctx)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	nctx, cancel := context.WithTimeout(ctx, f.timeout)
	resp, err := p.Navigate(nctx, u)
	cancel()
	if err != nil {
		return nil, err
	}
	if !isHTML(resp.ContentType) {
		return nil, fmt.Errorf("%s is not an HTML page (it answered %s)", u, resp.ContentType)
	}
	if resp.Status >= 400 {
		fmt.Fprintf(cmd.ErrOrStderr(), "e2e: warning: %s answered HTTP %d\n", u, resp.Status)
	}
	// A page that never settles is shown as it is, as a run would act on it.
	if _, err := p.Settle(ctx, browser.SettleOptions{Quiet: f.settleQuiet, Max: f.settleMax}); err != nil {
		if _, busy := errors.AsType[*browser.NotSettledError](err); !busy {
			return nil, err
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "e2e: warning: %s; the snapshot shows it as it was then\n", err)
	}
	if f.scope != "" {
		// Refs are handed out by snapshots; a fresh page hands them out
		// again in the same order, so the ref from an earlier run resolves.
		if _, err := p.Snapshot(ctx, browser.SnapshotOptions{}); err != nil {
			return nil, err
		}
	}
	return p.Snapshot(ctx, browser.SnapshotOptions{MaxNodes: f.maxNodes, Scope: f.scope, Boxes: f.asJSON,
		MaxText: noCapIfZero(f.maxText), MaxTotalText: noCapIfZero(f.maxTotalText)})
}

// noCapIfZero maps a flag's 0 ("no cap") to the option's negative; the
// option's 0 means its default.
func noCapIfZero(v int) int {
	if v == 0 {
		return -1
	}
	return v
}

func isHTML(contentType string) bool {
	ct := strings.ToLower(strings.TrimSpace(strings.Split(contentType, ";")[0]))
	return ct == "text/html" || ct == "application/xhtml+xml"
}

// normalizeURL accepts what people type: "localhost:8080/x" means http.
func normalizeURL(raw string) (string, error) {
	if !strings.Contains(raw, "://") && !strings.HasPrefix(raw, "about:") && !strings.HasPrefix(raw, "data:") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("invalid URL %q: %w", raw, err)
	}
	switch u.Scheme {
	case "http", "https", "file", "about", "data":
	default:
		return "", fmt.Errorf("invalid URL %q: scheme %q is not http, https or file", raw, u.Scheme)
	}
	if (u.Scheme == "http" || u.Scheme == "https") && u.Host == "" {
		return "", fmt.Errorf("invalid URL %q: no host", raw)
	}
	return u.String(), nil
}
