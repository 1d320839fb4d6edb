// Command e2e runs browser end-to-end tests written as intent.
//
// main stays thin: it builds the command tree and maps errors to exit codes.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	os.Exit(runUntilSignalled(os.Args[1:], os.Stdout, os.Stderr))
}

// shutdownSignals end a command the same way: its context is cancelled, so
// a run stops, closes its browsers and records what it did. SIGHUP (the
// terminal closed, the CI job's shell went away) is one of them.
var shutdownSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// runUntilSignalled runs the command in args until it ends or one of
// shutdownSignals arrives, and returns its exit code.
func runUntilSignalled(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), shutdownSignals...)
	defer stop()
	return run(ctx, args, stdout, stderr)
}
