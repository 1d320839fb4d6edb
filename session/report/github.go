package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/plural"
	"github.com/e2e-dev/e2e/session/run"
)

// GitHub Actions workflow commands: a failed test becomes an ::error at the
// failing step's line of its test file, a flaky one a ::warning, a healed
// one a ::notice; the step summary is Markdown. A session whose flow failed
// is one ::error at its line of e2e.yaml; the tests it left not run get
// none of their own.

// escapeData escapes a workflow command's message.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// repoPath is file (a path of rep, see run.Report.Open) relative to the
// root of the git repository that holds it, so that annotations land on
// the file in the pull request; without a repository, relative to the
// working directory (the checkout) when it lies under it.
func repoPath(rep *run.Report, file string) string {
	if !filepath.IsAbs(file) && rep.Dir == "" {
		return filepath.ToSlash(filepath.Clean(file)) // relative to the working directory already
	}
	abs, err := filepath.Abs(rep.Open(file))
	if err != nil {
		return filepath.ToSlash(file)
	}
	root := gitRoot(filepath.Dir(abs))
	if root == "" {
		root, _ = os.Getwd()
	}
	if root != "" {
		if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(abs)
}

// gitRoot is the nearest directory from dir upwards that holds .git (a
// directory, or a file in a worktree), or "".
func gitRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// WriteGitHubAnnotations prints one workflow command per failed, flaky or
// healed test.
func WriteGitHubAnnotations(w io.Writer, in *Input) {
	rw := in.Redactor.Writer(w)
	defer func() { _ = rw.Flush() }()
	w = rw
	rep := in.Report
	for _, f := range SessionFailures(rep) {
		fmt.Fprintf(w, "::error file=%s,line=%d,title=%s::%s\n", escapeProperty(repoPath(rep, f.File)), max(f.Line, 1),
			escapeProperty("e2e: "+f.Reason()+", "+plural.Count(f.Tests, "test")+" not run"), escapeData(f.Failure))
	}
	for i, t := range rep.Tests {
		d := detail(rep, i)
		if t.Status == session.TestNotRun {
			continue
		}
		line := 1
		if len(t.Steps) > 0 {
			line = t.Steps[0].Line
		}
		switch {
		case t.Status != "passed":
			msg := t.Error
			if fs := FailedStep(t); fs != nil {
				line = fs.Line
				msg = fmt.Sprintf("%s\nstep: %s", fs.Error, Describe(fs.Command))
			}
			fmt.Fprintf(w, "::error file=%s,line=%d,title=%s::%s\n", escapeProperty(repoPath(rep, t.File)), max(line, 1),
				escapeProperty("e2e: "+t.Name+" failed"), escapeData(msg))
		case d.Flaky:
			fmt.Fprintf(w, "::warning file=%s,line=%d,title=%s::%s\n", escapeProperty(repoPath(rep, t.File)), max(line, 1),
				escapeProperty("e2e: "+t.Name+" is flaky"), escapeData(fmt.Sprintf("passed on attempt %d; earlier: %s", d.Attempts, strings.Join(d.AttemptErrors, "; "))))
		case Healed(t, d):
			for _, st := range t.Steps {
				if strings.HasPrefix(st.MissReason, "healed (") {
					line = st.Line
					break
				}
			}
			fmt.Fprintf(w, "::notice file=%s,line=%d,title=%s::%s\n", escapeProperty(repoPath(rep, t.File)), max(line, 1),
				escapeProperty("e2e: "+t.Name+" was healed"), escapeData("an act no longer replayed and was healed; review it with e2e heals"))
		}
	}
}

// Markdown is the run as a GitHub step summary.
func Markdown(in *Input) string {
	s := Summarize(in)
	var b strings.Builder
	status := "✅ passed"
	if s.Failed+s.NotRun > 0 {
		status = "❌ failed"
	}
	title := "e2e run"
	if in.Shard != "" {
		title += " (shard " + in.Shard + ")"
	}
	fmt.Fprintf(&b, "## %s: %s\n\n", title, status)
	b.WriteString("| tests | passed | failed | flaky | healed | cache hit rate | re-identified | model calls | tokens | cost | time |\n")
	b.WriteString("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| %d | %d | %d | %d | %d | %.0f%% | %d | %d | %d | $%.4f | %s |\n\n", s.Total, s.Passed, s.Failed, s.Flaky, s.Healed,
		100*s.CacheHitRate, s.Reidentified, s.ModelCalls, s.TokensIn+s.TokensOut, s.Cost, s.Duration.Round(100*1e6))
	rep := in.Report
	var failed, flaky []string
	for i, t := range rep.Tests {
		d := detail(rep, i)
		if t.Status == session.TestNotRun {
			continue
		}
		if t.Status != session.TestPassed {
			loc := repoPath(rep, t.File)
			if fs := FailedStep(t); fs != nil {
				loc = fmt.Sprintf("%s:%d", loc, fs.Line)
			}
			failed = append(failed, fmt.Sprintf("- **%s** (`%s`): %s", mdEscape(t.Name), loc, mdEscape(firstLine(t.Error))))
		} else if d.Flaky {
			flaky = append(flaky, fmt.Sprintf("- **%s**: passed on attempt %d", mdEscape(t.Name), d.Attempts))
		}
	}
	if len(failed) > 0 {
		b.WriteString("### Failed\n\n" + strings.Join(failed, "\n") + "\n\n")
	}
	if fs := SessionFailures(rep); len(fs) > 0 {
		b.WriteString("### Not run\n\n")
		for _, f := range fs {
			fmt.Fprintf(&b, "- %s not run: %s (`%s:%d`): %s\n", plural.Count(f.Tests, "test"), mdEscape(f.Reason()), repoPath(rep, f.File), f.Line,
				mdEscape(firstLine(f.Failure)))
		}
		b.WriteString("\n")
	}
	if len(flaky) > 0 {
		b.WriteString("### Flaky\n\n" + strings.Join(flaky, "\n") + "\n\n")
	}
	return b.String()
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", "\\|", "<", "&lt;", ">", "&gt;").Replace(s)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// AppendGitHubSummary appends the Markdown summary to path
// ($GITHUB_STEP_SUMMARY), which other steps may also write to.
func AppendGitHubSummary(path string, in *Input) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("github step summary: %w", err)
	}
	if _, err := f.WriteString(in.Redactor.String(Markdown(in))); err != nil {
		f.Close()
		return fmt.Errorf("github step summary: %w", err)
	}
	return f.Close()
}
