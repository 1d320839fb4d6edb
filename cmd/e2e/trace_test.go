package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// traceApp is a page that logs, fails a request and throws when its button
// is clicked, and echoes the length of what was typed into its token box.
func traceApp(t *testing.T) string {
	t.Helper()
	skipShort(t, "a browser")
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, `<!doctype html><html><head><title>Trace app</title><style>#out { color: rgb(0, 90, 0); }</style></head><body>
<h1>Tokens</h1>
<label>Token <input id="tok" type="text"></label>
<button id="go" onclick="const v = document.getElementById('tok').value; console.log('the token is ' + v); console.error('oops'); fetch('/api/items?q=1'); setTimeout(() => { throw new Error('boom') }); document.getElementById('out').textContent = 'Done: ' + v.length; document.getElementById('echo').textContent = v; document.getElementById('echo').title = v;">Go</button>
<p id="echo"></p>
<div id="out" role="status">Waiting</div>
<script>console.info('loaded')</script>
</body></html>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

const traceSecret = `tr4ce "s3cret" \ & <more>` // a quote, a backslash, spaces, HTML specials

// readTrace decompresses and decodes a trace file.
func readTrace(t *testing.T, path string) (map[string]any, []byte) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m, b
}

// TestTraceRecordsSteps: with --trace on every test keeps a trace with, per
// step, the page before (the element acted on marked) and after, the
// lookup's decision, the requests and console messages, and its phases;
// under --ci by default only the failed test keeps one; with --trace off
// none is written. No trace holds the secret typed, in any form: the field
// shows dots and the console line that printed it is redacted.
func TestTraceRecordsSteps(t *testing.T) {
	t.Parallel()
	base := traceApp(t)
	dir := project(t, base, map[string]string{
		"token.e2e.yaml":  "name: token\nurl: /\nsteps:\n  - type: { into: the Token box, text: \"{{ secret.TRACE_TOKEN }}\" }\n  - click: the Go button\n  - expect: { text: { in: the status, contains: \"Done: \" } }\n",
		"broken.e2e.yaml": "name: broken\nurl: /\nsteps:\n  - click: the Go button\n  - click: the Missing button\n",
	})
	env := []string{"TRACE_TOKEN=" + traceSecret}
	traces := filepath.Join(dir, ".e2e", "traces")
	report := func(name string) map[string]string {
		t.Helper()
		var rep struct {
			Tests []struct{ Name, Trace string }
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, tt := range rep.Tests {
			out[tt.Name] = tt.Trace
		}
		return out
	}

	// --ci: retain-on-failure.
	code, stdout, stderr := e2eEnv(t, env, "run", "--config", dir, "--ci", "--reporter", "json="+filepath.Join(dir, "ci.json"))
	if code != 1 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	got := report("ci.json")
	if got["token"] != "" || !strings.HasPrefix(got["broken"], ".e2e/traces/") {
		t.Errorf("under --ci the traces are %v, want only the failed test's", got)
	}
	files, _ := filepath.Glob(filepath.Join(traces, "*.trace.json.gz"))
	if len(files) != 1 {
		t.Errorf("under --ci: %d trace files, want 1", len(files))
	}

	// --trace on: both.
	code, stdout, stderr = e2eEnv(t, env, "run", "--config", dir, "--ci", "--trace", "on", "--reporter", "json="+filepath.Join(dir, "on.json"))
	if code != 1 {
		t.Fatalf("--trace on: exit %d\n%s%s", code, stdout, stderr)
	}
	got = report("on.json")
	if got["token"] == "" || got["broken"] == "" {
		t.Fatalf("--trace on: traces %v", got)
	}
	tr, _ := readTrace(t, filepath.Join(dir, got["token"]))
	steps, _ := tr["steps"].([]any)
	if tr["status"] != "passed" || len(steps) != 3 {
		t.Fatalf("the token test's trace: status %v, %d steps", tr["status"], len(steps))
	}
	step := func(i int) map[string]any { return steps[i].(map[string]any) }
	html := func(s map[string]any, which string) string {
		d, _ := s[which].(map[string]any)
		h, _ := d["html"].(string)
		return h
	}
	typed := step(0)
	if b := html(typed, "before"); !strings.Contains(b, `id="tok" type="text" data-e2e-target=""`) || strings.Contains(b, "<script") || !strings.Contains(b, "rgb(0, 90, 0)") {
		t.Errorf("before typing: the field is not marked, a script is left or the styles are gone:\n%s", b)
	}
	if a := html(typed, "after"); !strings.Contains(a, `value="●●●●●●" data-e2e-masked=""`) {
		t.Errorf("after typing the secret the field does not show dots:\n%s", a)
	}
	if d, _ := typed["decision"].(string); !strings.Contains(d, "Replayed from the element cache") { // the --ci run cached it
		t.Errorf("the type step's decision: %q", d)
	}
	if ph, _ := typed["phases"].([]any); len(ph) < 2 {
		t.Errorf("the type step's phases: %v", typed["phases"])
	}
	click := step(1)
	netw, _ := json.Marshal(click["network"])
	if !strings.Contains(string(netw), `"url":"`+base+`/api/items?q=1"`) || !strings.Contains(string(netw), `"status":404`) || !strings.Contains(string(netw), `"method":"GET"`) {
		t.Errorf("the click's requests: %s", netw)
	}
	cons, _ := json.Marshal(click["console"])
	for _, want := range []string{`"level":"log","text":"the token is ***"`, `"level":"error","text":"oops"`, `"level":"pageerror"`, "boom"} {
		if !strings.Contains(string(cons), want) {
			t.Errorf("the click's console lacks %s: %s", want, cons)
		}
	}
	if a := html(step(2), "after"); !strings.Contains(a, "Done: "+fmt.Sprint(len(traceSecret))) {
		t.Errorf("the expect step's after page: %s", a)
	}
	br, _ := readTrace(t, filepath.Join(dir, got["broken"]))
	bsteps, _ := br["steps"].([]any)
	if len(bsteps) != 2 {
		t.Fatalf("the broken test's trace has %d steps", len(bsteps))
	}
	if d, _ := bsteps[1].(map[string]any)["decision"].(string); !strings.Contains(d, "No element fits") {
		t.Errorf("the failed step's decision: %q", d)
	}

	// No trace file holds the secret, in any form a page or JSON writes it.
	files, _ = filepath.Glob(filepath.Join(traces, "*.trace.json.gz"))
	forms := []string{traceSecret, "s3cret", `tr4ce \"s3cret\"`, "tr4ce &quot;s3cret&quot;", `tr4ce \u0022s3cret`}
	for _, f := range files {
		_, b := readTrace(t, f)
		raw, _ := os.ReadFile(f)
		for _, form := range forms {
			if bytes.Contains(b, []byte(form)) || bytes.Contains(raw, []byte(form)) {
				t.Errorf("%s holds the secret as %q", f, form)
			}
		}
	}

	// --trace off: nothing new.
	before := len(files)
	if code, stdout, stderr = e2eEnv(t, env, "run", "--config", dir, "--ci", "--trace", "off", "--reporter", "json="+filepath.Join(dir, "off.json")); code != 1 {
		t.Fatalf("--trace off: exit %d\n%s%s", code, stdout, stderr)
	}
	files, _ = filepath.Glob(filepath.Join(traces, "*.trace.json.gz"))
	if got := report("off.json"); len(files) != before || got["broken"] != "" {
		t.Errorf("--trace off wrote traces: %d files (were %d), %v", len(files), before, got)
	}
	if code, _, stderr := e2e(t, "run", "--config", dir, "--trace", "sometimes"); code != exitUsage || !strings.Contains(stderr, "want on, off or retain-on-failure") {
		t.Errorf("--trace sometimes: exit %d, %s", code, stderr)
	}
}
