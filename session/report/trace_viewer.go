package report

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/redact"
	"github.com/e2e-dev/e2e/session/run"
)

// ReadTrace reads a trace file (docs/trace.md): it returns the trace and
// its JSON. The error names the file and says what is wrong with it: it is
// missing, not a gzip-compressed e2e trace, or cut short.
func ReadTrace(path string) (*run.TraceFile, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("trace %s: no such file", path)
		}
		return nil, nil, fmt.Errorf("trace: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, nil, fmt.Errorf("trace %s: a directory, not a trace file", path)
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, nil, fmt.Errorf("%s is not a trace: not gzip-compressed (a trace is an .e2e/traces/*.trace.json.gz file)", path)
	}
	b, err := io.ReadAll(zr)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, nil, fmt.Errorf("%s is truncated: its compressed data ends early (cut short while written or copied)", path)
	case err != nil:
		return nil, nil, fmt.Errorf("%s is damaged: %w", path, err)
	}
	var tf run.TraceFile
	if err := json.Unmarshal(b, &tf); err != nil {
		return nil, nil, fmt.Errorf("%s is not a trace: its content is not a trace's JSON (%v)", path, err)
	}
	if tf.Version == 0 || tf.Steps == nil {
		return nil, nil, fmt.Errorf("%s is not a trace: its JSON has no version or steps", path)
	}
	if tf.Version > run.TraceVersion {
		return nil, nil, fmt.Errorf("%s: trace version %d is newer than this e2e reads (%d); update e2e", path, tf.Version, run.TraceVersion)
	}
	return &tf, b, nil
}

// writeTraceScript writes the trace of the test with id into dir/files as a
// script the HTML report loads from file:// when its viewer opens (a page
// opened from disk cannot fetch a file, but it can add a script): the
// trace's JSON, redacted by red, gzip-compressed and base64-encoded, set on
// window.e2eTraces[id]. It returns the script's path relative to dir.
func writeTraceScript(dir, id, path string, red *redact.Redactor) (string, error) {
	_, b, err := ReadTrace(path)
	if err != nil {
		return "", err
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	if _, err := zw.Write(red.JSON(b)); err != nil {
		return "", fmt.Errorf("trace script: %w", err)
	}
	if err := zw.Close(); err != nil {
		return "", fmt.Errorf("trace script: %w", err)
	}
	var js strings.Builder
	js.WriteString("window.e2eTraces = window.e2eTraces || {};\nwindow.e2eTraces[")
	idJSON, _ := json.Marshal(id)
	js.Write(idJSON)
	js.WriteString("] = \"")
	js.WriteString(base64.StdEncoding.EncodeToString(z.Bytes()))
	js.WriteString("\";\n")
	name := "trace-" + id + ".js"
	if err := os.WriteFile(filepath.Join(dir, "files", name), []byte(js.String()), 0o644); err != nil {
		return "", fmt.Errorf("trace script: %w", err)
	}
	return "files/" + name, nil
}

// WriteTraceViewer writes an HTML report of the one test a trace file
// recorded into dir, with the trace's viewer, and returns the URL that
// opens the viewer on it (file://…/index.html#trace-t1). The error names
// the file when it is missing, not a trace or truncated.
func WriteTraceViewer(dir, path string, red *redact.Redactor) (string, error) {
	tf, _, err := ReadTrace(path)
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("trace viewer: %w", err)
	}
	t := session.TestResult{Name: tf.Test, File: tf.File, Status: session.TestStatus(tf.Status), Error: tf.Error, DurationMS: tf.MS, Attempts: tf.Attempt}
	for _, s := range tf.Steps {
		t.Steps = append(t.Steps, session.StepResult{Index: s.Index, Depth: s.Depth, Line: s.Line, Command: s.Command, Kind: s.Kind,
			Status: session.StepStatus(s.Status), Cache: s.Cache, MissReason: s.MissReason, Error: s.Error, DurationMS: s.MS, Note: s.Note})
	}
	status := "passed"
	if t.Status != session.TestPassed {
		status = "failed"
	}
	rep := &run.Report{Run: session.Run{Project: filepath.Base(path), StartedAt: tf.Start, FinishedAt: tf.Start.Add(time.Duration(tf.MS) * time.Millisecond), Status: status},
		Tests: []session.TestResult{t}, Details: []run.TestDetail{{Attempts: tf.Attempt, Trace: abs}}}
	index, err := WriteHTML(dir, &Input{Report: rep, Redactor: red})
	if err != nil {
		return "", err
	}
	return FileURL(index) + "#trace-t1", nil
}

// FileURL is the file:// URL of an absolute path.
func FileURL(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}
