package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/e2e-dev/e2e/session/testfile"
)

// initBaseURL is the base URL e2e init offers: where e2e fixture serve
// listens, so that a new project runs against the fixture at once.
const initBaseURL = "http://127.0.0.1:8080"

// initTest is the first test e2e init writes, as a path under the project.
var initTest = filepath.Join("tests", "first.e2e.yaml")

// initIgnore is the .gitignore line for what e2e keeps that is not
// committed: the store (the cache, the run history, heals) and screenshots.
const initIgnore = ".e2e/"

func newInitCmd() *cobra.Command {
	var baseURL string
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Start a project: an e2e.yaml, a first test and a .gitignore line for .e2e/",
		Long: `init writes, in DIR (default: the current directory), an e2e.yaml that says
where the app is, a first test (tests/first.e2e.yaml) and a line in .gitignore
for .e2e/, where e2e keeps its store. It asks for the app's base URL unless
--base-url gives it (an empty answer takes ` + initBaseURL + `, where
e2e fixture serve listens). It never overwrites a file: when e2e.yaml or the
test exists it writes nothing.`,
		Example: `  e2e init
  e2e init --base-url http://localhost:3000
  e2e init web/e2e --base-url https://staging.example.com`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			return initProject(dir, baseURL, cmd.Flags().Changed("base-url"), cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&baseURL, "base-url", "", "the app's base URL, without the prompt (for scripts)")
	return cmd
}

// initProject writes the project's files in dir: e2e.yaml, the first test
// and the .gitignore line. Nothing is written when e2e.yaml or the test is
// there already, or when the base URL is not an http(s) URL (exit 2).
func initProject(dir, baseURL string, given bool, in io.Reader, out io.Writer) error {
	cfgPath, testPath := filepath.Join(dir, testfile.ConfigFile), filepath.Join(dir, initTest)
	for _, p := range []string{cfgPath, testPath} {
		if _, err := os.Lstat(p); err == nil {
			return fmt.Errorf("init: %s already exists; init never overwrites a file (edit it, or init another directory: e2e init DIR)", p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("init: %w", err)
		}
	}
	if !given {
		fmt.Fprintf(out, "The app's base URL [%s]: ", initBaseURL)
		line, err := bufio.NewReader(in).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("init: read the base URL: %w", err)
		}
		if baseURL = strings.TrimSpace(line); baseURL == "" {
			baseURL = initBaseURL
		}
		if errors.Is(err, io.EOF) {
			fmt.Fprintln(out)
		}
	}
	baseURL = strings.TrimSpace(baseURL)
	if u, err := url.Parse(baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("init: base URL %q: want an http:// or https:// URL with a host, such as %s", baseURL, initBaseURL)
	}
	cfg := fmt.Sprintf(`# e2e.yaml (written by e2e init): where the app is and which files are
# tests. Every key: docs/configuration.md in the e2e repository.
baseURL: %s
tests: ["tests/**/*.e2e.yaml"]
`, baseURL)
	if _, err := testfile.ParseConfig(cfgPath, []byte(cfg)); err != nil {
		return fmt.Errorf("init: base URL %q: %w", baseURL, err)
	}
	if err := os.MkdirAll(filepath.Dir(testPath), 0o755); err != nil {
		return fmt.Errorf("init: %w", err)
	}
	// Each file is created only if it is not there (O_EXCL): a file made
	// since the check above is not overwritten either.
	if err := createNew(cfgPath, cfg); err != nil {
		return err
	}
	if err := createNew(testPath, firstTest); err != nil {
		return err
	}
	ignored, err := ignoreState(filepath.Join(dir, ".gitignore"))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "wrote %s (baseURL %s)\nwrote %s\n", cfgPath, baseURL, testPath)
	if ignored {
		fmt.Fprintf(out, ".gitignore already ignores %s\n", initIgnore)
	} else {
		fmt.Fprintf(out, "added %s to %s (the store: cache, run history, heals; not committed, cached in CI)\n", initIgnore, filepath.Join(dir, ".gitignore"))
	}
	run := "e2e run"
	if dir != "." {
		run += " --config " + dir
	}
	fmt.Fprintf(out, "next: start the app at %s (to try e2e first, `e2e fixture serve` serves its fixture app on %s), then `%s`\n",
		baseURL, initBaseURL, run)
	return nil
}

// firstTest is the test e2e init writes: it passes on any app that opens.
const firstTest = `# A first test (written by e2e init): it opens the app at the baseURL of
# e2e.yaml and checks it loaded. Add steps as you would tell a person:
#   - click: the Sign in button
#   - type: { into: the Email field, text: "{{ env.E2E_USER }}" }
#   - expect: { visible: the Welcome heading }
# Every kind of step: docs/test-files.md in the e2e repository.
name: the app opens
url: /
steps:
  - expect: { url: "/*" }
`

// createNew writes text to a new file at path, refusing one that exists.
func createNew(path, text string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("init: %s already exists; init never overwrites a file", path)
	}
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return fmt.Errorf("init: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("init: %w", err)
	}
	return nil
}

// ignoreState makes the .gitignore at path ignore .e2e/: it appends the
// line (making the file when there is none) unless a line already does.
// It reports whether one did.
func ignoreState(path string) (bool, error) {
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("init: %w", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		switch strings.TrimSpace(l) {
		case ".e2e", ".e2e/", "/.e2e", "/.e2e/", ".e2e/*", "/.e2e/*":
			return true, nil
		}
	}
	add := "# e2e's store (cache, run history, heals): not committed; CI caches it\n" + initIgnore + "\n"
	if len(b) > 0 && !strings.HasSuffix(string(b), "\n") {
		add = "\n" + add
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
	if err != nil {
		return false, fmt.Errorf("init: %w", err)
	}
	if _, err := f.WriteString(add); err != nil {
		f.Close()
		return false, fmt.Errorf("init: %w", err)
	}
	return false, f.Close()
}
