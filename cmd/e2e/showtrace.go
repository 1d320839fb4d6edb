package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/e2e-dev/e2e/session/report"
)

func newShowTraceCmd(g *globals) *cobra.Command {
	var printOnly bool
	cmd := &cobra.Command{
		Use:   "show-trace PATH",
		Short: "Open the viewer of a trace (a .trace.json.gz file, or an HTML report's folder)",
		Long: `show-trace opens the trace viewer (docs/trace.md) in the desktop's browser.

PATH is a trace file (.e2e/traces/*.trace.json.gz, written by e2e run --trace)
or the folder of an HTML report whose tests have traces. For a trace file, the
viewer is written to a new temporary folder. Where no display is found (or
with --print) the file:// URL is printed instead, to open by hand.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			u, err := traceViewerURL(args[0], g)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if !printOnly {
				if opened := openURL(cmd.Context(), u); opened != "" {
					fmt.Fprintf(out, "opened %s with %s\n", u, opened)
					return nil
				}
			}
			fmt.Fprintln(out, u)
			return nil
		},
	}
	cmd.Flags().BoolVar(&printOnly, "print", false, "print the viewer's file:// URL; open no browser")
	return cmd
}

// traceViewerURL is the URL of the viewer for path: a trace file's viewer
// written to a new temporary folder, or a report folder's index.html on its
// first failed test's trace (#trace).
func traceViewerURL(path string, g *globals) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("show-trace: %s: no such file or folder", path)
		}
		return "", fmt.Errorf("show-trace: %w", err)
	}
	if st.IsDir() {
		index := filepath.Join(path, "index.html")
		if _, err := os.Stat(index); err != nil {
			return "", fmt.Errorf("show-trace: %s holds no HTML report (index.html); give a trace file (.e2e/traces/*.trace.json.gz) or an HTML report's folder", path)
		}
		scripts, _ := filepath.Glob(filepath.Join(path, "files", "trace-*.js"))
		if len(scripts) == 0 {
			return "", fmt.Errorf("show-trace: the report in %s holds no trace (run with --trace on or retain-on-failure)", path)
		}
		abs, err := filepath.Abs(index)
		if err != nil {
			return "", fmt.Errorf("show-trace: %w", err)
		}
		return report.FileURL(abs) + "#trace", nil
	}
	dir, err := os.MkdirTemp("", "e2e-trace-")
	if err != nil {
		return "", fmt.Errorf("show-trace: %w", err)
	}
	u, err := report.WriteTraceViewer(dir, path, g.red)
	if err != nil {
		_ = os.RemoveAll(dir)
		return "", fmt.Errorf("show-trace: %w", err)
	}
	return u, nil
}

// openURL opens u in the desktop's browser when there is a display and an
// opener (xdg-open, or open on macOS); it returns the opener's name, or ""
// when it opened nothing.
func openURL(ctx context.Context, u string) string {
	name := "xdg-open"
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		return ""
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return ""
		}
	}
	bin, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	if err := exec.CommandContext(ctx, bin, u).Run(); err != nil {
		return ""
	}
	return name
}
