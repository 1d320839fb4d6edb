package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/browser"
)

// traceScript decodes a trace script of the HTML report (files/trace-*.js):
// the base64 of the gzip of the trace's JSON.
func traceScript(t *testing.T, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`\] = "([A-Za-z0-9+/=]+)";`).FindSubmatch(raw)
	if m == nil {
		t.Fatalf("%s holds no base64 trace:\n%.300s", path, raw)
	}
	z, err := base64.StdEncoding.DecodeString(string(m[1]))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// redPixels counts the pixels of the viewer's outline colour (#e11d48, the
// element acted on) inside r of a screenshot.
func redPixels(img image.Image, r image.Rectangle) int {
	n := 0
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if cr>>8 > 200 && cg>>8 < 70 && cb>>8 > 50 && cb>>8 < 110 {
				n++
			}
		}
	}
	return n
}

// TestTraceViewer: the HTML report of a run with --trace on (one test
// passing, one failing) opens each test's trace from file:// with no
// server. In headless Chromium: the timeline lists the steps, a click on a
// step shows its page before (the element acted on outlined) and after in
// two sandboxed frames, the decision in words, and network and console
// panes whose filters work; the arrow keys move between steps. No file of
// the report holds the secret typed, in any form, the trace scripts
// decoded included. e2e show-trace opens (prints) the viewer of a trace
// file or a report folder and names what is wrong with a bad file.
// E2E_TRACE_SCREENSHOT=path keeps a screenshot of the viewer.
func TestTraceViewer(t *testing.T) {
	t.Parallel()
	base := traceApp(t)
	dir := project(t, base, map[string]string{
		"token.e2e.yaml":  "name: token\nurl: /\nsteps:\n  - type: { into: the Token box, text: \"{{ secret.TRACE_TOKEN }}\" }\n  - click: the Go button\n  - expect: { text: { in: the status, contains: \"Done: \" } }\n",
		"broken.e2e.yaml": "name: broken\nurl: /\nsteps:\n  - click: the Go button\n  - click: the Missing button\n",
	})
	env := []string{"TRACE_TOKEN=" + traceSecret}
	htmlDir := filepath.Join(dir, "report")
	code, stdout, stderr := e2eEnv(t, env, "run", "--config", dir, "--trace", "on", "--reporter", "html="+htmlDir+",json="+filepath.Join(dir, "run.json"))
	if code != 1 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	scripts, _ := filepath.Glob(filepath.Join(htmlDir, "files", "trace-*.js"))
	if len(scripts) != 2 {
		t.Fatalf("the report has %d trace scripts, want 2: %v", len(scripts), scripts)
	}

	// No file of the report holds the secret, in any form a page or JSON
	// writes it; the trace scripts are decoded too.
	forms := []string{traceSecret, "s3cret", `tr4ce \"s3cret\"`, "tr4ce &quot;s3cret&quot;", `tr4ce \u0022s3cret`, "tr4ce &#34;s3cret&#34;"}
	_ = filepath.Walk(htmlDir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		texts := [][]byte{raw}
		if strings.HasPrefix(filepath.Base(p), "trace-") {
			texts = append(texts, traceScript(t, p))
		}
		for _, b := range texts {
			for _, form := range forms {
				if bytes.Contains(b, []byte(form)) {
					t.Errorf("%s holds the secret as %q", p, form)
				}
			}
		}
		return nil
	})
	if js := traceScript(t, scripts[0]); !bytes.Contains(js, []byte(`"steps":[`)) {
		t.Errorf("%s does not decode to a trace: %.200s", scripts[0], js)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b, err := browser.Launch(ctx, browser.Options{Width: 1400, Height: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Navigate(ctx, "file://"+filepath.Join(htmlDir, "index.html")); err != nil {
		t.Fatal(err)
	}

	// Open the token test's trace; its timeline lists its three steps.
	type viewer struct {
		Open                     bool
		Title, Status            string
		Steps                    []string
		Selected                 int
		Decision, Text, Info     string
		Before, After            string // the frames' srcdoc
		Sandbox                  []string
		BeforeRect, AfterRect    []float64
		Outline, Scripts         string // the before frame's target's outline; whether a script ran in a frame
		Net, Con                 []string
		NetCount, ConCount, Fail string
	}
	const state = `() => {
	  const tv = document.getElementById('trace'), fr = [...tv.querySelectorAll('.tv-frames iframe')];
	  const rect = f => { const r = f.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
	  const bf = tv.querySelector('.tv-bslot iframe'), af = tv.querySelector('.tv-aslot iframe');
	  return { open: !tv.hidden, title: tv.querySelector('.tv-title').textContent, status: tv.querySelector('.tv-status').textContent,
	    steps: [...tv.querySelectorAll('.tv-steps li')].map(li => li.textContent),
	    selected: [...tv.querySelectorAll('.tv-steps li')].findIndex(li => li.classList.contains('sel')),
	    decision: tv.querySelector('.tv-words').textContent, text: tv.querySelector('.tv-text').textContent, info: tv.querySelector('.tv-info').textContent,
	    before: bf ? bf.srcdoc : '', after: af ? af.srcdoc : '', sandbox: fr.map(f => f.getAttribute('sandbox')),
	    beforeRect: bf ? rect(bf) : [], afterRect: af ? rect(af) : [],
	    outline: (() => { try { const t = bf.contentDocument.querySelector('[data-e2e-target]'); return t ? getComputedStyle(t).outlineStyle + ' ' + getComputedStyle(t).outlineWidth : 'no target'; } catch (e) { return String(e); } })(),
	    scripts: fr.map(f => { try { return String(f.contentWindow.e2eRan || ''); } catch (e) { return String(e); } }).join(''),
	    net: [...tv.querySelectorAll('.tv-net tbody tr')].map(r => r.textContent),
	    con: [...tv.querySelectorAll('.tv-con tbody tr')].map(r => r.textContent),
	    netCount: tv.querySelector('.tv-net .n').textContent, conCount: tv.querySelector('.tv-con .n').textContent,
	    fail: [...document.querySelectorAll('.trace-error')].map(e => e.textContent).join('; ') };
	}`
	// wait resolves once the viewer is open and both frames (when there
	// are two) have rendered.
	const wait = `() => new Promise(done => {
	  const check = () => {
	    const tv = document.getElementById('trace'), fr = [...tv.querySelectorAll('.tv-frames iframe')];
	    const ready = !tv.hidden && fr.length === 2 && fr.every(f => f.dataset.loaded === '1');
	    if (!ready && performance.now() < 60000 && !document.querySelector('.trace-error')) return setTimeout(check, 50);
	    requestAnimationFrame(() => requestAnimationFrame(() => done(ready)));
	  };
	  check();
	})`
	var v viewer
	look := func(what string) {
		t.Helper()
		var ready bool
		if err := p.Eval(ctx, &ready, wait); err != nil {
			t.Fatal(err)
		}
		if err := p.Eval(ctx, &v, state); err != nil {
			t.Fatal(err)
		}
		if !ready {
			t.Fatalf("%s: the viewer did not render both frames: %+v", what, v)
		}
	}
	if err := p.Eval(ctx, nil, `() => { const b = document.querySelector('button.open-trace[data-name="token"]'); b.closest('details').open = true; b.click(); }`); err != nil {
		t.Fatal(err)
	}
	look("opening the token test's trace")
	if !v.Open || v.Title != "token" || v.Status != "passed" || len(v.Steps) != 3 || v.Selected != 0 {
		t.Fatalf("the viewer shows %+v", v)
	}
	for _, s := range v.Sandbox {
		if s != "allow-same-origin" {
			t.Errorf("a frame's sandbox is %q, want scripts off (allow-same-origin only)", s)
		}
	}
	if !strings.Contains(v.After, `data-e2e-masked`) || !strings.Contains(v.Before, `data-e2e-target`) {
		t.Errorf("the type step: the before frame has no target or the after frame no masked field")
	}

	// A click on the second step (click the Go button) shows it.
	if err := p.Eval(ctx, nil, `() => document.querySelectorAll('#trace .tv-steps li')[1].click()`); err != nil {
		t.Fatal(err)
	}
	look("clicking the second step")
	if v.Selected != 1 || !strings.Contains(v.Text, "Go") || v.Decision == "" {
		t.Errorf("after a click on step 2: selected %d, %q, decision %q", v.Selected, v.Text, v.Decision)
	}
	if !strings.Contains(v.Before, `id="go" data-e2e-target`) && !strings.Contains(v.Before, `data-e2e-target=""`) || !strings.Contains(v.Before, "Waiting") {
		t.Errorf("the before frame of the click does not mark the button or is not the page before:\n%.2000s", v.Before)
	}
	if strings.Contains(v.After, `data-e2e-target=""`) || !strings.Contains(v.After, "Done: ") {
		t.Errorf("the after frame of the click is not the page after:\n%.2000s", v.After)
	}
	if v.Outline != "solid 3px" || v.Scripts != "" {
		t.Errorf("the before frame's target has outline %q; scripts ran: %q", v.Outline, v.Scripts)
	}
	// The frames render: the outline of the element acted on shows in the
	// before frame, none in the after one.
	png1, err := p.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(png1))
	if err != nil {
		t.Fatal(err)
	}
	box := func(r []float64) image.Rectangle {
		return image.Rect(int(r[0]), int(r[1]), int(r[2]), int(r[3]))
	}
	if len(v.BeforeRect) != 4 || len(v.AfterRect) != 4 {
		t.Fatalf("frames at %v and %v", v.BeforeRect, v.AfterRect)
	}
	if r := box(v.BeforeRect); r.Dx() < 300 || r.Dy() < 200 {
		t.Errorf("the before frame is %v, too small to see", r)
	}
	if n := redPixels(img, box(v.BeforeRect)); n < 40 {
		t.Errorf("the before frame shows %d pixels of the target's outline, want the Go button outlined", n)
	}
	if n := redPixels(img, box(v.AfterRect)); n != 0 {
		t.Errorf("the after frame shows %d pixels of an outline, want none", n)
	}
	if v.BeforeRect[2] > v.AfterRect[0] || v.BeforeRect[1] != v.AfterRect[1] {
		t.Errorf("before %v and after %v are not side by side", v.BeforeRect, v.AfterRect)
	}

	// The panes: the request the click made, and its console messages,
	// filtered by text and by level.
	if !strings.Contains(strings.Join(v.Net, "\n"), "/api/items?q=1") || !strings.Contains(strings.Join(v.Net, "\n"), "404") {
		t.Errorf("the network pane: %v", v.Net)
	}
	all := len(v.Con)
	if all < 3 {
		t.Fatalf("the console pane: %v", v.Con)
	}
	if err := p.Eval(ctx, nil, `() => { const i = document.querySelector('#trace .tv-con .q'); i.value = 'oops'; i.dispatchEvent(new Event('input')); }`); err != nil {
		t.Fatal(err)
	}
	if err := p.Eval(ctx, &v, state); err != nil {
		t.Fatal(err)
	}
	if len(v.Con) != 1 || !strings.Contains(v.Con[0], "oops") || !strings.Contains(v.ConCount, "1 of ") {
		t.Errorf("filtered by 'oops', the console pane shows %v (%s)", v.Con, v.ConCount)
	}
	if err := p.Eval(ctx, nil, `() => { const i = document.querySelector('#trace .tv-con .q'); i.value = ''; i.dispatchEvent(new Event('input'));
	  const s = document.querySelector('#trace .tv-con .k'); s.value = 'pageerror'; s.dispatchEvent(new Event('change')); }`); err != nil {
		t.Fatal(err)
	}
	if err := p.Eval(ctx, &v, state); err != nil {
		t.Fatal(err)
	}
	if len(v.Con) != 1 || !strings.Contains(v.Con[0], "boom") {
		t.Errorf("filtered by level pageerror, the console pane shows %v", v.Con)
	}
	if err := p.Eval(ctx, nil, `() => { const s = document.querySelector('#trace .tv-con .k'); s.value = 'error'; s.dispatchEvent(new Event('change'));
	  const i = document.querySelector('#trace .tv-net .q'); i.value = 'api/items'; i.dispatchEvent(new Event('input')); }`); err != nil {
		t.Fatal(err)
	}
	if err := p.Eval(ctx, &v, state); err != nil {
		t.Fatal(err)
	}
	if len(v.Con) != 1 || !strings.Contains(v.Con[0], "oops") || len(v.Net) != 1 {
		t.Errorf("level error: console %v; requests filtered by api/items: %v", v.Con, v.Net)
	}
	if shot := os.Getenv("E2E_TRACE_SCREENSHOT"); shot != "" {
		png, err := p.Screenshot(ctx)
		if err == nil {
			err = os.WriteFile(shot, png, 0o644)
		}
		if err != nil {
			t.Error(err)
		}
	}

	// The arrow keys move between steps (not while typing in a filter).
	key := func(k string) {
		t.Helper()
		if err := p.Eval(ctx, nil, `k => document.querySelector('#trace .tv-steps').dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true}))`, k); err != nil {
			t.Fatal(err)
		}
	}
	key("ArrowDown")
	look("ArrowDown")
	if v.Selected != 2 || !strings.Contains(v.Text, "expect") {
		t.Errorf("after ArrowDown: step %d %q, want the third", v.Selected, v.Text)
	}
	key("ArrowUp")
	key("ArrowUp")
	look("ArrowUp twice")
	if v.Selected != 0 {
		t.Errorf("after ArrowUp twice: step %d, want the first", v.Selected)
	}
	key("Escape")
	if err := p.Eval(ctx, &v, state); err != nil {
		t.Fatal(err)
	}
	if v.Open {
		t.Errorf("Escape left the viewer open")
	}

	// The failed test's trace opens on its failed step.
	if err := p.Eval(ctx, nil, `() => document.querySelector('button.open-trace[data-name="broken"]').click()`); err != nil {
		t.Fatal(err)
	}
	var ready bool
	if err := p.Eval(ctx, &ready, `() => new Promise(done => { const check = () => { const tv = document.getElementById('trace');
	  if (!tv.hidden && tv.querySelector('.tv-title').textContent === 'broken') return done(true);
	  if (performance.now() > 60000) return done(false); setTimeout(check, 50); }; check(); })`); err != nil || !ready {
		t.Fatalf("the broken test's trace did not open (%v)", err)
	}
	if err := p.Eval(ctx, &v, state); err != nil {
		t.Fatal(err)
	}
	if v.Status != "failed" || v.Selected != 1 || !strings.Contains(v.Decision, "No element fits") {
		t.Errorf("the broken test's trace: %s, step %d, decision %q", v.Status, v.Selected, v.Decision)
	}

	// e2e show-trace: a trace file's viewer, printed where no display is.
	var rep struct {
		Tests []struct{ Name, Trace string }
	}
	if b, err := os.ReadFile(filepath.Join(dir, "run.json")); err != nil {
		t.Fatal(err)
	} else if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	var tokenTrace string
	for _, tt := range rep.Tests {
		if tt.Name == "token" {
			tokenTrace = filepath.Join(dir, tt.Trace)
		}
	}
	code, stdout, stderr = e2eEnv(t, []string{"DISPLAY=", "WAYLAND_DISPLAY="}, "show-trace", tokenTrace)
	u := strings.TrimSpace(stdout)
	if code != 0 || !strings.HasPrefix(u, "file:///") || !strings.HasSuffix(u, "/index.html#trace-t1") {
		t.Fatalf("show-trace: exit %d, %q %s", code, stdout, stderr)
	}
	t.Cleanup(func() {
		_ = os.RemoveAll(filepath.Dir(strings.TrimSuffix(strings.TrimPrefix(u, "file://"), "#trace-t1")))
	})
	if _, err := p.Navigate(ctx, u); err != nil {
		t.Fatal(err)
	}
	look("show-trace's page")
	if !v.Open || v.Title != "token" || len(v.Steps) != 3 {
		t.Errorf("show-trace's page shows %+v", v)
	}
	// A snapshot with a script in it (a trace written by hand: e2e's own
	// have none) runs nothing in the viewer.
	var hostile bytes.Buffer
	hz := gzip.NewWriter(&hostile)
	page := `<html><body><h1 id="h">Hostile</h1><script>window.e2eRan = 1; parent.document.title = 'ran'</script><img src="x" onerror="window.e2eRan = 2; parent.document.title = 'ran'"></body></html>`
	hj, _ := json.Marshal(map[string]any{"version": 1, "test": "hostile", "file": "h.e2e.yaml", "attempt": 1, "status": "passed",
		"steps": []map[string]any{{"index": 0, "line": 1, "command": "click: x", "status": "passed", "before": map[string]any{"html": page}, "after": map[string]any{"html": page}}}})
	_, _ = hz.Write(hj)
	_ = hz.Close()
	hpath := filepath.Join(t.TempDir(), "hostile.trace.json.gz")
	if err := os.WriteFile(hpath, hostile.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = e2e(t, "show-trace", "--print", hpath)
	if code != 0 {
		t.Fatalf("show-trace of a hand-written trace: exit %d %s", code, stderr)
	}
	hu := strings.TrimSpace(stdout)
	t.Cleanup(func() {
		_ = os.RemoveAll(filepath.Dir(strings.TrimSuffix(strings.TrimPrefix(hu, "file://"), "#trace-t1")))
	})
	if _, err := p.Navigate(ctx, hu); err != nil {
		t.Fatal(err)
	}
	look("a hand-written trace")
	var title string
	if err := p.Eval(ctx, &title, `() => document.title`); err != nil {
		t.Fatal(err)
	}
	if v.Title != "hostile" || v.Scripts != "" || title == "ran" {
		t.Errorf("a script of a snapshot ran in the viewer: %q, title %q", v.Scripts, title)
	}

	code, stdout, _ = e2e(t, "show-trace", "--print", htmlDir)
	if code != 0 || !strings.HasSuffix(strings.TrimSpace(stdout), "/report/index.html#trace") {
		t.Errorf("show-trace of the report folder: exit %d, %q", code, stdout)
	}

	// Bad paths are named, with what is wrong.
	raw, err := os.ReadFile(tokenTrace)
	if err != nil {
		t.Fatal(err)
	}
	bad := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(bad, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var notTrace bytes.Buffer
	zw := gzip.NewWriter(&notTrace)
	_, _ = zw.Write([]byte(`{"name": "not a trace"}`))
	_ = zw.Close()
	for _, c := range []struct{ path, want string }{
		{filepath.Join(bad, "gone.trace.json.gz"), "gone.trace.json.gz: no such file"},
		{write("plain.trace.json.gz", []byte("name: x\n")), "plain.trace.json.gz is not a trace: not gzip-compressed"},
		{write("other.json.gz", notTrace.Bytes()), "other.json.gz is not a trace: its JSON has no version or steps"},
		{write("cut.trace.json.gz", raw[:len(raw)/2]), "cut.trace.json.gz is truncated"},
		{bad, "holds no HTML report"},
	} {
		code, stdout, stderr := e2e(t, "show-trace", "--print", c.path)
		if code != exitUsage || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("show-trace %s: exit %d, %q %q, want %q", filepath.Base(c.path), code, stdout, stderr, c.want)
		}
	}
}
