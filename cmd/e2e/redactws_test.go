package main

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/agent/agenttest"
)

// wsLeakForms are the spellings a secret holding white space takes on its
// way out, written here by hand rather than with the redactor's table:
// raw; as innerText and the snapshot collapse it (runs of white space one
// space, trimmed or not); as an <input> keeps it when it is pasted (each
// line break a space) or set (line breaks removed); and each of those as
// leakForms spells it (Go- and JSON-quoted, URL- and HTML-escaped).
func wsLeakForms(v string, pieces ...string) []string {
	collapse := regexp.MustCompile(`[ \t\n\r\f]+`)
	typed := strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(v)
	var out []string
	for _, f := range []string{
		v,
		collapse.ReplaceAllString(v, " "),
		strings.TrimSpace(collapse.ReplaceAllString(v, " ")),
		strings.Join(strings.Fields(v), " "),
		typed,
		collapse.ReplaceAllString(typed, " "),
		strings.NewReplacer("\r", "", "\n", "").Replace(v),
	} {
		out = append(out, leakForms(f)...)
	}
	return append(out, pieces...)
}

// secretGreen counts the pixels of img in the green (#00d000) in which
// /secretecho paints the field's value and its echoes, and nothing else;
// magenta counts the mask's pixels.
func secretGreen(img image.Image) (green, magenta int) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			if g >= 110 && r <= 70 && bl <= 70 {
				green++
			}
			if r >= 180 && bl >= 150 && g <= 70 {
				magenta++
			}
		}
	}
	return green, magenta
}

// TestWhiteSpaceSecretsLeaveNoTrace types secrets holding a tab, two
// spaces, a line break, a CRLF and white space at their edges into
// /secretecho, whose <input> keeps a line break as a space and whose page
// text echoes the value; innerText and the snapshot collapse its white
// space. A step asks the (scripted) model about the page, and expectations
// fail quoting the page text. Every output is searched for every spelling
// of both secrets: stdout, stderr, the JSON, JUnit and HTML reports, every
// byte of the SQLite database and its WAL, the file names and every request
// the model server got; the screenshots must show none of the echo's
// pixels.
func TestWhiteSpaceSecretsLeaveNoTrace(t *testing.T) {
	base := fixtureServer(t)
	a := "Rk7\tmoss  fern\nQz4"
	b := " pine\r\nOak3  "
	t.Setenv("E2E_WS_A", a)
	t.Setenv("E2E_WS_B", b)
	dir := project(t, base, map[string]string{
		"a.e2e.yaml": "name: white space a\nurl: /secretecho\nsteps:\n" +
			"  - type: { into: the Access code field, text: \"{{ secret.E2E_WS_A }}\" }\n" +
			"  - assert: the vault echoes the code\n" +
			"  - expect: { text: { in: the Vault, is: \"nothing\" } }\n",
		"b.e2e.yaml": "name: white space b\nurl: /secretecho\nsteps:\n" +
			"  - type: { into: the Access code field, text: \"{{ secret.E2E_WS_B }}\" }\n" +
			"  - expect: { text: { in: the Vault, is: \"nothing\" } }\n",
	})
	srv := agenttest.New(t, judge(true, "the vault echoes it"))
	out := filepath.Join(dir, "out")
	code, stdout, stderr := e2e(t, "run", "--config", dir, "--model", "scripted", "--model-url", srv.URL(), "--workers", "1",
		"--screenshots", "on",
		"--reporter", "junit="+filepath.Join(out, "junit.xml")+",json="+filepath.Join(out, "results.json")+",html="+filepath.Join(out, "html"))
	if code != 1 || !strings.Contains(stdout, "0 passed, 2 failed") {
		t.Fatalf("want both tests to fail: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// The secrets did flow: the failures quote the page text, redacted.
	if strings.Count(stdout, "You typed: ***") < 2 {
		t.Errorf("the text expectations do not quote the redacted page text:\n%s", stdout)
	}
	if srv.Count() != 1 {
		t.Errorf("%d model requests, want 1", srv.Count())
	}

	outputs := map[string]string{"stdout": stdout, "stderr": stderr}
	for i, r := range srv.Requests() {
		outputs[fmt.Sprintf("model request %d", i+1)] = string(r.Body)
		if !strings.Contains(r.Text(), "***") {
			t.Errorf("model request %d shows no redacted page:\n%s", i+1, r.Text())
		}
	}
	var names, shots []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		names = append(names, rel)
		if d.IsDir() || strings.HasSuffix(p, ".yaml") {
			return nil
		}
		if filepath.Ext(p) == ".png" {
			shots = append(shots, p)
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		outputs[rel] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	outputs["file names"] = strings.Join(names, "\n")
	for _, want := range []string{filepath.Join(".e2e", "e2e.db"), filepath.Join("out", "results.json"), filepath.Join("out", "junit.xml"), filepath.Join("out", "html", "index.html")} {
		if _, ok := outputs[want]; !ok {
			t.Errorf("no %s among %v", want, names)
		}
	}
	for what, text := range outputs {
		for _, f := range append(wsLeakForms(a, "Rk7", "moss", "fern", "Qz4"), wsLeakForms(b, "pine", "Oak3")...) {
			if strings.Contains(text, f) {
				i := strings.Index(text, f)
				t.Errorf("%s holds %q: …%s…", what, f, text[max(0, i-80):min(len(text), i+len(f)+40)])
				break
			}
		}
	}

	// Every step's screenshot: the echoes show no pixel of the secret, and
	// a mask covers them.
	if len(shots) < 3 {
		t.Fatalf("%d screenshots, want one a step: %v", len(shots), names)
	}
	for _, p := range shots {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if green, magenta := secretGreen(img); green > 0 || magenta == 0 {
			t.Errorf("%s: %d pixels of the secret show, %d masked", filepath.Base(p), green, magenta)
		}
	}
}

// TestWhiteSpaceOnlySecretIsRefused: a secret made only of white space
// cannot be redacted (pages collapse white space), so e2e run refuses it
// before any browser starts, naming it at its line, exit 2.
func TestWhiteSpaceOnlySecretIsRefused(t *testing.T) {
	t.Setenv("E2E_WS_BLANK", " \t\r\n ")
	dir := project(t, "http://127.0.0.1:1", map[string]string{
		"blank.e2e.yaml": "name: blank secret\nurl: /secretecho\nsteps:\n" +
			"  - type: { into: the Access code field, text: \"{{ secret.E2E_WS_BLANK }}\" }\n",
	})
	code, stdout, stderr := e2e(t, "run", "--config", dir)
	want := "blank.e2e.yaml:4:5: {{ secret.E2E_WS_BLANK }} is only white space: a secret must hold more than spaces, tabs and line breaks"
	if code != 2 || !strings.Contains(stdout+stderr, want) {
		t.Fatalf("exit %d, want 2 and %q:\n%s\n%s", code, want, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".e2e")); err == nil {
		t.Errorf("a refused run wrote its store")
	}
}
