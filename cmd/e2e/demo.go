package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/fixture"
)

// newDemoCmd is the README's first command: for now it serves the fixture
// app and prints the snapshot of each of its main pages with timings.
func newDemoCmd(g *globals) *cobra.Command {
	var pages []string
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Serve the fixture app in-process and show what the agent sees of it",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				return err
			}
			srv := &http.Server{Handler: fixture.Handler(fixture.Options{}), ReadHeaderTimeout: 10 * time.Second}
			go srv.Serve(ln)
			defer srv.Close()
			base := "http://" + ln.Addr().String()
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "fixture app on %s\n", base)
			start := time.Now()
			b, err := browser.Launch(ctx, g.browserOptions())
			if err != nil {
				return err
			}
			defer b.Close()
			fmt.Fprintf(out, "browser %s started in %s\n\n", b.Version(), time.Since(start).Round(time.Millisecond))
			p, err := b.NewPage(ctx)
			if err != nil {
				return err
			}
			defer p.Close()
			for _, path := range pages {
				pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
				t0 := time.Now()
				if _, err := p.Navigate(pctx, base+path); err != nil {
					cancel()
					return err
				}
				if _, err := p.Settle(pctx, browser.SettleOptions{}); err != nil {
					cancel()
					return err
				}
				loaded := time.Since(t0)
				t1 := time.Now()
				s, err := p.Snapshot(pctx, browser.SnapshotOptions{MaxNodes: 400})
				cancel()
				if err != nil {
					return err
				}
				fmt.Fprintf(out, "── %s  (loaded and settled in %s, snapshot in %s, %d nodes)\n", path,
					loaded.Round(time.Millisecond), time.Since(t1).Round(time.Millisecond), s.Total)
				fmt.Fprintln(out, s.Text(ax.TextOptions{}))
			}
			return nil
		},
	}
	cmd.Flags().StringSliceVar(&pages, "pages", []string{"/login", "/users", "/product", "/booking"}, "fixture pages to show")
	return cmd
}
