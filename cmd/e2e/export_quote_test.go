package main

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/redact"
)

// TestExportPlaywrightVariablesInPatterns: {{ env.X }} inside a contains
// or URL expectation is read from the environment when the spec runs (not
// written as literal text), and a line break in a contains value is white
// space as in e2e (not a line break that ends the regular expression
// literal: TS1161). The spec passes in Playwright where e2e run passes.
func TestExportPlaywrightVariablesInPatterns(t *testing.T) {
	t.Parallel()
	modules := npmCache(t)
	srv := fixtureServer(t)
	dir := project(t, srv, map[string]string{"patterns.e2e.yaml": `name: patterns with variables
url: /login
steps:
  - type: { into: the email field, text: "{{ env.E2E_USER }}" }
  - expect: { value: { of: the email field, contains: "{{ env.E2E_DOMAIN }}" } }
  - expect: { value: { of: the email field, contains: "alice@{{ env.E2E_DOMAIN_NAME }}.com" } }
  - expect: { title: { contains: "{{ env.E2E_TITLE_WORD }}" } }
  - expect: { title: { contains: "Sign\nin" } }
  - expect: { url: { contains: "{{ env.E2E_PATH }}" } }
  - expect: { url: "/{{ env.E2E_PAGE }}*" }
`})
	env := map[string]string{"E2E_USER": "alice@example.com", "E2E_DOMAIN": "@example.com", "E2E_DOMAIN_NAME": "example",
		"E2E_TITLE_WORD": "Sign", "E2E_PATH": "/login", "E2E_PAGE": "log"}
	var pwEnv []string
	for k, v := range env {
		pwEnv = append(pwEnv, k+"="+v)
	}
	if code, out, errOut := e2eEnv(t, pwEnv, "run", "--config", dir); code != 0 {
		t.Fatalf("e2e run: exit %d\n%s%s", code, out, errOut)
	}
	pw := filepath.Join(dir, "pw")
	if code, out, errOut := e2eEnv(t, pwEnv, "export", "playwright", "--config", dir, "--out", pw, "--playwright-config", "--require-recorded"); code != 0 {
		t.Fatalf("export: exit %d\n%s%s", code, out, errOut)
	}
	spec, err := os.ReadFile(filepath.Join(pw, "patterns.spec.ts"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(spec), "\n") {
		if strings.Contains(line, "{{") && !strings.HasPrefix(strings.TrimSpace(line), "await test.step(") && !strings.HasPrefix(strings.TrimSpace(line), "//") {
			t.Errorf("a variable is written as literal text: %s", line)
		}
	}
	if err := os.WriteFile(filepath.Join(pw, "tsconfig.json"), []byte(tsconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	if err, out := playwright(t, modules, pw, nil, "tsc", "--noEmit", "-p", "."); err != nil {
		t.Fatalf("tsc --noEmit: %v\n%s\n%s", err, out, spec)
	}
	pwEnv = append(pwEnv, "E2E_BASE_URL="+srv)
	if err, out := playwright(t, modules, pw, pwEnv, "playwright", "test", "--reporter=line", "--output", t.TempDir()); err != nil || !strings.Contains(out, "1 passed") {
		t.Fatalf("playwright test: %v\n%s\n%s", err, out, spec)
	}
}

// TestExportKeepsSecretsOutOfPlaywrightReports: a secret reaches exported
// code only where the browser needs its value. Playwright runs a spec that
// types it, checks it and has an act that did not replay (a test.fixme
// naming the goal), with its json, junit, html and list reporters; nothing
// they write (the html report's packed data included) holds the secret in
// any form. And a name read off the page that holds the secret, with an
// apostrophe the spec escapes, is redacted from the spec.
func TestExportKeepsSecretsOutOfPlaywrightReports(t *testing.T) {
	t.Parallel()
	modules := npmCache(t)
	const secret = `it's-s3cret-9`
	mux := http.NewServeMux()
	mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<!doctype html><title>Sign in</title><main><h1>Sign in</h1>
<label>Password <input type="password" name="pw"></label> <button type="button">Sign in</button></main>`)
	})
	mux.HandleFunc("/copy", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<!doctype html><title>Token</title><main><label>Search <input name="q"></label>
<button type="button">Copy it's-s3cret-9</button></main>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	dir := project(t, srv.URL, map[string]string{
		"signin.e2e.yaml": `name: sign in with the password {{ secret.E2E_PW }}
url: /login
steps:
  - type: { into: the Password field, text: "{{ secret.E2E_PW }}" }
  - expect: { value: { of: the Password field, is: "{{ secret.E2E_PW }}" } }
  - act: sign in with the password {{ secret.E2E_PW }}
`,
		"copy.e2e.yaml": `name: copy the token
url: /copy
steps:
  - type: { into: the Search field, text: "{{ secret.E2E_PW }}" }
  - click: the Copy button
`})
	pw := filepath.Join(dir, "pw")
	code, out, errOut := e2eEnv(t, []string{"E2E_PW=" + secret}, "export", "playwright", "--config", dir, "--out", pw, "--playwright-config")
	if code != 0 {
		t.Fatalf("export: exit %d\n%s%s", code, out, errOut)
	}
	forms := redact.Forms(secret)
	leaks := func(what string, b []byte) {
		t.Helper()
		for _, f := range forms {
			if bytes.Contains(b, []byte(f)) {
				t.Errorf("%s holds the secret as %q", what, f)
			}
		}
	}
	leaks("the export's output", []byte(out+errOut))
	if !strings.Contains(out, "copy.spec.ts (2 steps, 2 steps to check: see the TODO comments, a secret's value the page showed is redacted as ***: ") {
		t.Errorf("the export does not say it redacted copy.spec.ts:\n%s", out)
	}
	copySpec, err := os.ReadFile(filepath.Join(pw, "copy.spec.ts"))
	if err != nil {
		t.Fatal(err)
	}
	leaks("copy.spec.ts", copySpec)
	if !strings.Contains(string(copySpec), "'Copy "+redact.Marker+"'") {
		t.Errorf("the Copy button's name is not redacted in copy.spec.ts:\n%s", copySpec)
	}
	signin, err := os.ReadFile(filepath.Join(pw, "signin.spec.ts"))
	if err != nil {
		t.Fatal(err)
	}
	leaks("signin.spec.ts", signin)
	// Only fillSecret and the expectation read the secret.
	if n := strings.Count(string(signin), "process.env.E2E_PW"); n != 2 || !strings.Contains(string(signin), "fillSecret(") ||
		!strings.Contains(string(signin), "test.fixme(true, 'act not recorded yet: sign in with the password {{ secret.E2E_PW }}')") {
		t.Errorf("signin.spec.ts reads the secret %d times:\n%s", n, signin)
	}

	reports := t.TempDir()
	env := []string{"E2E_BASE_URL=" + srv.URL, "E2E_PW=" + secret, "PLAYWRIGHT_HTML_OPEN=never",
		"PLAYWRIGHT_JSON_OUTPUT_FILE=" + filepath.Join(reports, "report.json"),
		"PLAYWRIGHT_JUNIT_OUTPUT_FILE=" + filepath.Join(reports, "junit.xml"),
		"PLAYWRIGHT_HTML_OUTPUT_DIR=" + filepath.Join(reports, "html")}
	err, pwOut := playwright(t, modules, pw, env, "playwright", "test", "signin.spec.ts", "--reporter=list,json,junit,html",
		"--output", filepath.Join(reports, "results"))
	if err != nil || !strings.Contains(pwOut, "1 skipped") {
		t.Fatalf("playwright test: %v, want the test skipped at its fixme\n%s", err, pwOut)
	}
	leaks("Playwright's output", []byte(pwOut))
	var files int
	err = filepath.WalkDir(reports, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		for name, content := range unpacked(t, p, b) {
			leaks(name, content)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"report.json", "junit.xml", "html/index.html"} {
		b, err := os.ReadFile(filepath.Join(reports, f))
		if err != nil {
			t.Errorf("Playwright wrote no %s: %v", f, err)
			continue
		}
		// The reports did record the run: the fixme, with the goal as written.
		if f != "html/index.html" && !strings.Contains(string(b), "act not recorded yet: sign in with the password {{ secret.E2E_PW }}") {
			t.Errorf("%s does not name the act that did not replay:\n%s", f, b)
		}
	}
	t.Logf("looked through the %d files Playwright wrote", files)
}

// htmlReportData is the zip Playwright's html reporter packs its data in.
var htmlReportData = regexp.MustCompile(`data:application/zip;base64,([A-Za-z0-9+/=]+)`)

// unpacked is the content of a file Playwright wrote, by name: the file
// itself, and every entry of a zip archive it is or holds (the html
// report's data, a trace).
func unpacked(t *testing.T, name string, b []byte) map[string][]byte {
	t.Helper()
	out := map[string][]byte{name: b}
	var zips [][]byte
	if bytes.HasPrefix(b, []byte("PK\x03\x04")) {
		zips = append(zips, b)
	}
	for _, m := range htmlReportData.FindAllSubmatch(b, -1) {
		z, err := base64.StdEncoding.DecodeString(string(m[1]))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		zips = append(zips, z)
	}
	for _, z := range zips {
		r, err := zip.NewReader(bytes.NewReader(z), int64(len(z)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, f := range r.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			c, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
			out[name+"!"+f.Name] = c
		}
	}
	return out
}
