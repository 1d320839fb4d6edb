package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/redact"
	"github.com/e2e-dev/e2e/session/run"
)

// withReidentified is sample plus a passing test whose second step was
// re-identified: its cached selectors missed after a redesign and the
// element was found by its likeness to the cached node.
func withReidentified(t *testing.T) *Input {
	in := sample(t)
	save := `--step-type CLICK --description "the Save button" --cache-id def`
	in.Report.Tests = append(in.Report.Tests, session.TestResult{Name: "renamed", File: "tests/save.e2e.yaml", Status: "passed", DurationMS: 800,
		Steps: []session.StepResult{
			{Index: 0, Line: 3, Command: save, Kind: "CLICK", Status: session.StatusHit, Cache: "hit", DurationMS: 30},
			{Index: 1, Line: 4, Command: save, Kind: "CLICK", Status: session.StatusReidentified, Cache: "miss", MissReason: "no-match", DurationMS: 45,
				Reidentified: &session.Reidentification{Score: 0.82, RunnerUp: 0.41, Second: `button "Save draft"`}},
		}})
	in.Report.Details = append(in.Report.Details, run.TestDetail{Attempts: 1, Worker: 1})
	return in
}

// TestSummaryCountsReidentifiedApart: a re-identified step is a lookup
// that did not hit; it counts apart from hits, located and re-located.
func TestSummaryCountsReidentifiedApart(t *testing.T) {
	s := Summarize(withReidentified(t))
	// lookups: 3 hits, 1 located, 1 re-located, 1 re-identified
	if s.Reidentified != 1 || s.Hits != 3 || s.Located != 1 || s.Relocated != 1 || s.CacheHitRate != 0.5 {
		t.Errorf("%+v", s)
	}
	if Mark(string(session.StatusReidentified)) != "✓" {
		t.Errorf("a re-identified step is marked %q", Mark(string(session.StatusReidentified)))
	}
}

func TestJSONReidentified(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	if err := WriteJSON(path, withReidentified(t)); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	var j struct {
		Summary map[string]any `json:"summary"`
		Tests   []struct {
			Steps []map[string]any `json:"steps"`
		} `json:"tests"`
	}
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	if j.Summary["reidentified"] != 1.0 || j.Summary["hits"] != 3.0 {
		t.Errorf("summary %v", j.Summary)
	}
	steps := j.Tests[4].Steps
	if steps[1]["status"] != "re-identified" {
		t.Errorf("step %v", steps[1])
	}
	want := map[string]any{"score": 0.82, "runnerUp": 0.41, "second": `button "Save draft"`}
	if got, _ := steps[1]["reidentified"].(map[string]any); len(got) != 3 || got["score"] != want["score"] || got["runnerUp"] != want["runnerUp"] || got["second"] != want["second"] {
		t.Errorf("reidentified %v, want %v", steps[1]["reidentified"], want)
	}
	if _, ok := steps[0]["reidentified"]; ok {
		t.Errorf("a hit has a reidentified field: %v", steps[0])
	}
}

func TestHTMLReidentified(t *testing.T) {
	index, err := WriteHTML(filepath.Join(t.TempDir(), "report"), withReidentified(t))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(index)
	html := string(b)
	for _, want := range []string{
		`id="n-reidentified">1<`,
		`<tr class="reidentified">`,
		`<td class="status">re-identified <span class="reid" title="its likeness to the cached element, then the next best candidate and its likeness">0.82 (next: button &#34;Save draft&#34; 0.41)</span></td>`,
		`<td class="cache miss">miss (no-match)</td>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if n := strings.Count(html, `class="reid"`); n != 1 {
		t.Errorf("%d steps show a re-identification, want 1", n)
	}
}

func TestTextReportsReidentified(t *testing.T) {
	in := withReidentified(t)
	var b bytes.Buffer
	Line(&b, run.Palette{}, run.Progress{Test: &in.Report.Tests[4], Detail: &in.Report.Details[4]})
	if want := "✓ renamed (tests/save.e2e.yaml) 0.8s, 1/2 steps from cache, 1 re-identified\n"; b.String() != want {
		t.Errorf("line %q, want %q", b.String(), want)
	}
	b.Reset()
	Line(&b, run.Palette{}, run.Progress{Test: &in.Report.Tests[0], Detail: &in.Report.Details[0]})
	if strings.Contains(b.String(), "re-identified") {
		t.Errorf("a test with no re-identified step: %q", b.String())
	}
	b.Reset()
	Final(&b, run.Palette{}, in)
	if !strings.Contains(b.String(), "cache hit rate 50% (1 re-identified)") {
		t.Errorf("final %q", b.String())
	}
	if md := Markdown(in); !strings.Contains(md, "| re-identified |") || !strings.Contains(md, "| 5 | 4 | 1 | 1 | 1 | 50% | 1 | 1 |") {
		t.Errorf("markdown:\n%s", md)
	}
	path := filepath.Join(t.TempDir(), "junit.xml")
	if err := WriteJUnit(path, in); err != nil {
		t.Fatal(err)
	}
	x, _ := os.ReadFile(path)
	var doc JUnitSuites
	if err := xml.Unmarshal(x, &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if c.Name == "renamed" {
				found = strings.Contains(c.SystemOut, `✓ line 4: click the Save button [re-identified, no-match, 0.82 (next: button "Save draft" 0.41)]`)
				if !found {
					t.Errorf("system-out:\n%s", c.SystemOut)
				}
			}
		}
	}
	if !found {
		t.Error("no renamed case")
	}
}

// TestReportsRedactTheRunnerUp: the runner-up is a line of the page; a
// secret on it is redacted from every report.
func TestReportsRedactTheRunnerUp(t *testing.T) {
	secret := `tok3n"<x>`
	in := withReidentified(t)
	in.Redactor = redact.New(secret)
	in.Report.Tests[4].Steps[1].Reidentified.Second = `textbox "Token": ` + secret
	dir := t.TempDir()
	if err := WriteJSON(filepath.Join(dir, "r.json"), in); err != nil {
		t.Fatal(err)
	}
	if err := WriteJUnit(filepath.Join(dir, "junit.xml"), in); err != nil {
		t.Fatal(err)
	}
	index, err := WriteHTML(filepath.Join(dir, "html"), in)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "r.json"), filepath.Join(dir, "junit.xml"), index} {
		b, _ := os.ReadFile(p)
		for _, f := range append(redact.Forms(secret), "tok3n") {
			if strings.Contains(string(b), f) {
				t.Errorf("%s holds %q", filepath.Base(p), f)
			}
		}
		if !strings.Contains(string(b), "Token") {
			t.Errorf("%s lost the runner-up", filepath.Base(p))
		}
	}
}
