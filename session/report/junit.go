package report

import (
	"encoding/xml"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/plural"
	"github.com/e2e-dev/e2e/session/run"
)

// JUnit XML as GitHub (test reporters), GitLab and Jenkins read it: one
// <testsuite> per test file, one <testcase> per test, a <failure> with the
// message and the failing step, and flaky, healed and attempts as
// <properties> of the testcase. Failed attempts before a pass are
// <flakyFailure> elements, and before a final failure <rerunFailure>, as
// Maven Surefire writes them (Jenkins shows both).
//
// A test not run because its session's flow failed is <skipped> with the
// reason, and the session is a <testcase> of its own ("session: NAME", in
// a <testsuite> named after the e2e.yaml that holds it) whose <failure> is
// the flow's: the failure is counted and shown once, as Playwright reports
// a failed setup project and the tests that depend on it, and a CI that
// reads the XML still fails the build.

// JUnitSuites is the document root.
type JUnitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []JUnitSuite `xml:"testsuite"`
}

// JUnitSuite is one test file.
type JUnitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Properties []JUnitProperty `xml:"properties>property,omitempty"`
	Cases      []JUnitCase     `xml:"testcase"`
}

// JUnitCase is one test.
type JUnitCase struct {
	Name          string          `xml:"name,attr"`
	Classname     string          `xml:"classname,attr"`
	File          string          `xml:"file,attr,omitempty"`
	Line          int             `xml:"line,attr,omitempty"`
	Time          string          `xml:"time,attr"`
	Properties    []JUnitProperty `xml:"properties>property,omitempty"`
	Failure       *JUnitFailure   `xml:"failure,omitempty"`
	Skipped       *JUnitSkipped   `xml:"skipped,omitempty"`
	FlakyFailures []JUnitFailure  `xml:"flakyFailure,omitempty"`
	RerunFailures []JUnitFailure  `xml:"rerunFailure,omitempty"`
	SystemOut     string          `xml:"system-out,omitempty"`
}

// JUnitProperty is a name and a value.
type JUnitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// JUnitFailure is why a test (or an attempt) failed.
type JUnitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// JUnitSkipped says why a test did not run.
type JUnitSkipped struct {
	Message string `xml:"message,attr"`
}

func seconds(ms int64) string { return strconv.FormatFloat(float64(ms)/1000, 'f', 3, 64) }

// ToJUnit converts a run.
func ToJUnit(in *Input) *JUnitSuites {
	rep := in.Report
	sum := Summarize(in)
	doc := &JUnitSuites{Name: "e2e", Tests: sum.Total, Failures: sum.Failed, Skipped: sum.NotRun, Time: seconds(sum.Duration.Milliseconds())}
	byFile := map[string]int{}
	suite := func(file string) *JUnitSuite {
		k, ok := byFile[file]
		if !ok {
			k = len(doc.Suites)
			byFile[file] = k
			props := []JUnitProperty{{"run", strconv.FormatInt(rep.Run.ID, 10)}, {"project", rep.Run.Project}}
			if in.Shard != "" {
				props = append(props, JUnitProperty{"shard", in.Shard})
			}
			doc.Suites = append(doc.Suites, JUnitSuite{Name: file, Timestamp: rep.Run.StartedAt.UTC().Format("2006-01-02T15:04:05"), Properties: props})
		}
		return &doc.Suites[k]
	}
	for _, f := range SessionFailures(rep) {
		s := suite(f.File)
		s.Tests++
		s.Failures++
		doc.Tests++
		doc.Failures++
		s.Cases = append(s.Cases, JUnitCase{Name: "session: " + f.Session, Classname: "sessions", File: f.File, Line: f.Line, Time: seconds(0),
			Properties: []JUnitProperty{{"flow", f.Flow}, {"notRun", strconv.Itoa(f.Tests)}},
			Failure: &JUnitFailure{Message: f.Failure, Type: "SessionFailed",
				Text: fmt.Sprintf("%s:%d: %s: %s\n%s not run because of it\n", f.File, f.Line, f.Reason(), f.Failure, plural.Count(f.Tests, "test"))}})
	}
	for i, t := range rep.Tests {
		d := detail(rep, i)
		s := suite(t.File)
		s.Tests++
		c := JUnitCase{Name: t.Name, Classname: classname(t.File), File: t.File, Time: seconds(t.DurationMS),
			Properties: []JUnitProperty{
				{"flaky", strconv.FormatBool(d.Flaky)},
				{"healed", strconv.FormatBool(Healed(t, d))},
				{"attempts", strconv.Itoa(max(d.Attempts, 1))},
			}}
		for _, id := range d.Heals {
			c.Properties = append(c.Properties, JUnitProperty{"heal", strconv.FormatInt(id, 10)})
		}
		var out strings.Builder
		for _, st := range t.Steps {
			// A flow's steps are indented under the use step that ran it.
			fmt.Fprintf(&out, "%s%s line %d: %s [%s", strings.Repeat("  ", st.Depth), Mark(string(st.Status)), st.Line, Describe(st.Command), st.Status)
			if st.MissReason != "" {
				fmt.Fprintf(&out, ", %s", st.MissReason)
			}
			if st.Reidentified != nil {
				fmt.Fprintf(&out, ", %s", run.ReidentifiedText(st.Reidentified))
			}
			fmt.Fprintf(&out, "] %dms\n", st.DurationMS)
		}
		c.SystemOut = out.String()
		switch {
		case t.Status == session.TestNotRun:
			s.Skipped++
			why := t.Error
			if d.NotRun != nil {
				why = d.NotRun.Reason() + " (its failure is the testcase session: " + d.NotRun.Session + ")"
			}
			c.Skipped = &JUnitSkipped{Message: "not run: " + why}
		case t.Status != session.TestPassed:
			s.Failures++
			f := &JUnitFailure{Message: t.Error, Type: "StepFailed"}
			if d.Crashed {
				f.Type = "RendererCrashed"
			}
			if fs := FailedStep(t); fs != nil {
				c.Line = fs.Line
				f.Text = fmt.Sprintf("%s:%d: %s\nstep: %s\n", t.File, fs.Line, fs.Error, Describe(fs.Command))
				if fs.Screenshot != "" {
					f.Text += "screenshot: " + fs.Screenshot + "\n"
				}
			} else {
				f.Text = t.Error
			}
			c.Failure = f
			for _, e := range d.AttemptErrors {
				c.RerunFailures = append(c.RerunFailures, JUnitFailure{Message: e, Type: "StepFailed"})
			}
		default:
			for _, e := range d.AttemptErrors {
				c.FlakyFailures = append(c.FlakyFailures, JUnitFailure{Message: e, Type: "StepFailed"})
			}
		}
		s.Cases = append(s.Cases, c)
	}
	for k := range doc.Suites {
		var ms int64
		for _, c := range doc.Suites[k].Cases {
			f, _ := strconv.ParseFloat(c.Time, 64)
			ms += int64(f * 1000)
		}
		doc.Suites[k].Time = seconds(ms)
	}
	sort.SliceStable(doc.Suites, func(a, b int) bool { return doc.Suites[a].Name < doc.Suites[b].Name })
	return doc
}

// classname is the file without its .e2e.yaml suffix, dotted, the way CI
// systems group test cases.
func classname(file string) string {
	c := strings.TrimSuffix(strings.TrimSuffix(file, ".yaml"), ".yml")
	c = strings.TrimSuffix(c, ".e2e")
	c = strings.TrimPrefix(strings.ReplaceAll(c, "/", "."), ".")
	return c
}

// WriteJUnit writes the JUnit XML of a run to path.
func WriteJUnit(path string, in *Input) error {
	b, err := xml.MarshalIndent(ToJUnit(in), "", "  ")
	if err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	return writeAtomic(path, append([]byte(xml.Header), append(in.Redactor.Bytes(b), '\n')...))
}
