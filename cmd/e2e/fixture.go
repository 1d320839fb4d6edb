package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/e2e-dev/e2e/session/fixture"
)

func newFixtureCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "fixture",
		Short: "The fixture web app that e2e's own tests, demo and benchmarks run against",
	}
	var addr, variants string
	serve := &cobra.Command{
		Use:   "serve",
		Short: "Serve the fixture app until interrupted",
		Example: `  e2e fixture serve --addr :8080
  e2e fixture serve --variant shuffle,recolor`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			vs, err := fixture.ParseVariants(variants)
			if err != nil {
				return err
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return fmt.Errorf("listen on %s: %w", addr, err)
			}
			srv := &http.Server{Handler: fixture.Handler(fixture.Options{Variants: vs}), ReadHeaderTimeout: 10 * time.Second}
			host := ln.Addr().String()
			if strings.HasPrefix(host, "[::]") || strings.HasPrefix(host, "0.0.0.0") {
				host = "localhost" + host[strings.LastIndex(host, ":"):]
			}
			fmt.Fprintf(cmd.OutOrStdout(), "fixture app on http://%s/ (variants: %s; pick per request with ?variant=%s)\n",
				host, orNone(vs), strings.Join(fixture.Variants, ","))
			go func() {
				<-cmd.Context().Done()
				srv.Close()
			}()
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		},
	}
	serve.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on")
	serve.Flags().StringVar(&variants, "variant", "", "variants applied to every request: "+strings.Join(fixture.Variants, ", "))
	cmd.AddCommand(serve)
	return cmd
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ",")
}
