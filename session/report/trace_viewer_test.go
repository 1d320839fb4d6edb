package report

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/redact"
	"github.com/e2e-dev/e2e/session/run"
)

// TestHTMLTraceScripts: a test's trace is copied into the HTML report's
// folder as a script that holds it, passed through the report's redactor
// (a trace written before the secret was known to the redactor does not
// carry it into the report); a trace file that cannot be read leaves the
// report whole and says why beside the test.
func TestHTMLTraceScripts(t *testing.T) {
	const secret = "hunter2-trace"
	dir := t.TempDir()
	tf := run.TraceFile{Version: run.TraceVersion, Test: "login", File: "login.e2e.yaml", Attempt: 1, Status: "passed", Start: time.Now(),
		Steps: []run.TraceStep{{Index: 0, Line: 3, Command: "click: Sign in", Status: "passed", Decision: "This step looks up no element.",
			After:   &browser.DOMSnapshot{HTML: `<p title="` + secret + `">` + secret + `</p>`, URL: "http://app/?t=" + secret},
			Console: []browser.ConsoleMessage{{Level: "log", Text: "token " + secret}}}}}
	b, _ := json.Marshal(tf)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	_, _ = zw.Write(b)
	_ = zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "good.trace.json.gz"), z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cut.trace.json.gz"), z.Bytes()[:z.Len()/2], 0o644); err != nil {
		t.Fatal(err)
	}
	rep := &run.Report{Dir: dir, Run: session.Run{ID: 1, Status: "passed"},
		Tests:   []session.TestResult{{Name: "login", Status: session.TestPassed}, {Name: "cut", Status: session.TestPassed}},
		Details: []run.TestDetail{{Trace: "good.trace.json.gz"}, {Trace: "cut.trace.json.gz"}}}
	out := filepath.Join(dir, "report")
	index, err := WriteHTML(out, &Input{Report: rep, Redactor: redact.New(secret)})
	if err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(index)
	if !bytes.Contains(page, []byte(`data-trace="files/trace-t1.js"`)) || bytes.Contains(page, []byte(`data-trace="files/trace-t2.js"`)) {
		t.Errorf("the page's trace buttons are wrong")
	}
	if !bytes.Contains(page, []byte("cut.trace.json.gz is truncated")) {
		t.Errorf("the page does not say the second trace is cut short")
	}
	raw, err := os.ReadFile(filepath.Join(out, "files", "trace-t1.js"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`window\.e2eTraces\["t1"\] = "([A-Za-z0-9+/=]+)";`).FindSubmatch(raw)
	if m == nil {
		t.Fatalf("the script: %.200s", raw)
	}
	gz, _ := base64.StdEncoding.DecodeString(string(m[1]))
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	js, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var back run.TraceFile
	if err := json.Unmarshal(js, &back); err != nil || back.Test != "login" || len(back.Steps) != 1 {
		t.Fatalf("the script's trace: %v %+v", err, back)
	}
	if strings.Contains(string(js), secret) || strings.Contains(string(raw), secret) {
		t.Errorf("the trace script holds the secret:\n%s", js)
	}
	if !strings.Contains(back.Steps[0].Console[0].Text, "token ***") {
		t.Errorf("the console message: %q", back.Steps[0].Console[0].Text)
	}
}
