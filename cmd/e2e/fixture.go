package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
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
			ln, err := listen(addr, "--addr")
			if err != nil {
				return err
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

// listen listens on addr, which flag set. An address that cannot be
// listened on (a port in use, one below 1024 without the right, a host
// that is not this machine's) is a usage error, exit 2, that names the
// flag to change; it is never blamed on the database.
func listen(addr, flag string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err == nil {
		return ln, nil
	}
	msg := fmt.Sprintf("%s %s: cannot listen there (%v); pick another address with %s", flag, addr, unwrapOp(err), flag)
	if errors.Is(err, syscall.EADDRINUSE) {
		msg = fmt.Sprintf("%s %s: the port is in use (is it already serving?); stop what listens there, or pick a free port with %s, e.g. %s %s",
			flag, addr, flag, flag, otherPort(addr))
	}
	return nil, &exitError{code: exitUsage, err: errors.New(msg)}
}

// unwrapOp is the cause of a *net.OpError ("bind: permission denied"
// without "listen tcp 127.0.0.1:80:"), which the caller names the address of.
func unwrapOp(err error) error {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return oe.Err
	}
	return err
}

// otherPort is addr with the next port, for the advice: 127.0.0.1:8080 →
// 127.0.0.1:8081; 127.0.0.1:0 (any free port) when addr has no number.
func otherPort(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "127.0.0.1:0"
	}
	n, err := strconv.Atoi(port)
	if err != nil || n <= 0 || n >= 65535 {
		return net.JoinHostPort(host, "0")
	}
	return net.JoinHostPort(host, strconv.Itoa(n+1))
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ",")
}
