package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/agent/scripted"
	"github.com/e2e-dev/e2e/session/fixture"
)

// npmOnce runs scripts/ensure-npm once for the package's tests, which may
// ask at once.
var (
	npmOnce sync.Once
	npmOut  []byte
	npmErr  error
)

// npmCache makes sure @playwright/test and typescript are installed (as
// `make npm` does) and returns their node_modules directory.
func npmCache(t *testing.T) string {
	t.Helper()
	skipShort(t, "Playwright")
	npmOnce.Do(func() { npmOut, npmErr = exec.Command("../../scripts/ensure-npm").CombinedOutput() })
	if npmErr != nil {
		t.Fatalf("scripts/ensure-npm: %v\n%s", npmErr, npmOut)
	}
	dir := os.Getenv("E2E_NPM_CACHE")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Fatal(err)
		}
		dir = filepath.Join(home, ".cache", "e2e", "npm")
	}
	return filepath.Join(dir, "node_modules")
}

// exportProject copies the named test files (from the repository) into a
// new project whose e2e.yaml points at base.
func exportProject(t *testing.T, base string, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join("..", "..", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	conf := "baseURL: " + base + "\ntests: [\"*.e2e.yaml\"]\ndb: e2e.db\ntimeouts: { step: 5s }\n"
	if err := os.WriteFile(filepath.Join(dir, "e2e.yaml"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// playwright runs Playwright's own runner (or tsc) in dir, the specs'
// directory, with node_modules linked in; it returns the exit error and
// the output.
func playwright(t *testing.T, modules, dir string, env []string, args ...string) (error, string) {
	t.Helper()
	link := filepath.Join(dir, "node_modules")
	if _, err := os.Lstat(link); err != nil {
		if err := os.Symlink(modules, link); err != nil {
			t.Fatal(err)
		}
	}
	if len(args) > 1 && args[0] == "playwright" && args[1] == "test" {
		args = append(args, "--config", stallConfig(t, dir))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(modules, ".bin", args[0]), args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1", "CI=1"), env...)
	out, err := cmd.CombinedOutput()
	return err, string(out)
}

// stallConfig writes, beside the exported playwright.config.ts, a config
// that extends it without Playwright's own wall-clock limits (30 s a test,
// 5 s an expectation): on a stalled machine a spec that passes must not
// fail for its clock. The harness's 5 minutes remain the bound. A spec
// meant to fail on an expectation sets E2E_TEST_EXPECT_TIMEOUT (ms).
func stallConfig(t *testing.T, dir string) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "playwright.config.ts")); err != nil {
		t.Fatalf("no exported playwright.config.ts in %s: %v", dir, err)
	}
	const conf = `import base from './playwright.config';
import { defineConfig } from '@playwright/test';
const expectTimeout = Number(process.env.E2E_TEST_EXPECT_TIMEOUT ?? 600000);
export default defineConfig({
  ...base,
  timeout: 0,
  expect: { ...base.expect, timeout: expectTimeout },
  use: { ...base.use, actionTimeout: 0, navigationTimeout: 0 },
});
`
	if err := os.WriteFile(filepath.Join(dir, "stall.config.ts"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	return "stall.config.ts"
}

const tsconfig = `{
  "compilerOptions": {
    "target": "ES2022", "module": "commonjs", "moduleResolution": "node",
    "strict": true, "noEmit": true, "skipLibCheck": true, "types": ["node"]
  },
  "include": ["*.ts"]
}
`

// TestExportPlaywrightSpecsPassInPlaywright: the examples and two markup-zoo
// tests, recorded by e2e, are exported; tsc finds nothing wrong with the
// specs and Playwright itself runs them against the fixture app, and they
// pass. On the recolor variant (the blue button is now another one), the
// exported product spec fails, as e2e's own test does: the export keeps the
// description's intent. No secret value enters a spec.
func TestExportPlaywrightSpecsPassInPlaywright(t *testing.T) {
	t.Parallel()
	modules := npmCache(t)
	srv := httptest.NewServer(fixture.Handler(fixture.Options{}))
	t.Cleanup(srv.Close)
	files := []string{"examples/login.e2e.yaml", "examples/users.e2e.yaml", "examples/product.e2e.yaml",
		"examples/search.e2e.yaml", "examples/booking.e2e.yaml", "examples/zoo/table.e2e.yaml", "examples/zoo/tasks.e2e.yaml",
		"cmd/e2e/testdata/export/embedded.e2e.yaml"} // a frame and a shadow root
	dir := exportProject(t, srv.URL, files...)
	signIn := []string{"E2E_USER=alice@example.com", "E2E_PASSWORD=correct-horse"} // for e2e and the specs
	if code, out, errOut := e2eEnv(t, signIn, "run", "--config", dir); code != 0 {
		t.Fatalf("e2e run: exit %d\n%s%s", code, out, errOut)
	}
	pw := filepath.Join(dir, "pw")
	code, out, errOut := e2eEnv(t, signIn, "export", "playwright", "--config", dir, "--out", pw, "--playwright-config")
	if code != 0 {
		t.Fatalf("export: exit %d\n%s%s", code, out, errOut)
	}
	if strings.Contains(out, "to check") || strings.Count(out, "wrote ") != len(files)+1 {
		t.Errorf("export said:\n%s", out)
	}
	specs, _ := filepath.Glob(filepath.Join(pw, "*.spec.ts"))
	if len(specs) != len(files) {
		t.Fatalf("%d specs, want %d", len(specs), len(files))
	}
	if b, _ := os.ReadFile(filepath.Join(pw, "embedded.spec.ts")); !strings.Contains(string(b),
		`await page.locator('iframe[title="Embedded form"]').contentFrame().getByRole('button', { name: 'Frame button' }).click();`) {
		t.Errorf("the frame's button is not found through its frame:\n%s", b)
	}
	for _, s := range specs {
		b, _ := os.ReadFile(s)
		for _, bad := range []string{"correct-horse", "waitForTimeout", "TODO"} {
			if strings.Contains(string(b), bad) {
				t.Errorf("%s holds %q:\n%s", filepath.Base(s), bad, b)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(pw, "tsconfig.json"), []byte(tsconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	if err, out := playwright(t, modules, pw, signIn, "tsc", "--noEmit", "-p", "."); err != nil {
		t.Fatalf("tsc --noEmit: %v\n%s", err, out)
	}
	env := append([]string{"E2E_BASE_URL=" + srv.URL}, signIn...)
	if err, out := playwright(t, modules, pw, env, "playwright", "test", "--reporter=line", "--workers=2", "--output", t.TempDir()); err != nil ||
		!strings.Contains(out, fmt.Sprintf("%d passed", len(files))) {
		t.Fatalf("playwright test: %v\n%s", err, out)
	}

	recolor := httptest.NewServer(fixture.Handler(fixture.Options{Variants: []string{"recolor"}}))
	t.Cleanup(recolor.Close)
	env = append([]string{"E2E_BASE_URL=" + recolor.URL}, signIn...)
	err, out := playwright(t, modules, pw, append(env, "E2E_TEST_EXPECT_TIMEOUT=5000"), "playwright", "test", "product.spec.ts", "--reporter=line", "--output", t.TempDir())
	if err == nil || !strings.Contains(out, "toHaveCSS") || !strings.Contains(out, "1 failed") {
		t.Fatalf("the product spec on recolor: %v, want it to fail on the colour\n%s", err, out)
	}
	// The other specs do not care about colour: they still pass there.
	if err, out := playwright(t, modules, pw, env, "playwright", "test", "users.spec.ts", "--reporter=line", "--output", t.TempDir()); err != nil {
		t.Fatalf("the users spec on recolor: %v\n%s", err, out)
	}
}

// TestExportRequireRecorded: a step that never ran is written from its
// description with a TODO comment, or, with --require-recorded, is an
// error naming its file and line, and nothing is written.
func TestExportRequireRecorded(t *testing.T) {
	t.Parallel()
	srv := fixtureServer(t)
	dir := exportProject(t, srv)
	src := "name: fresh\nurl: /login\nsteps:\n  - click: the Sign in button\n  - expect: { visible: the Launch rocket button }\n"
	if err := os.WriteFile(filepath.Join(dir, "fresh.e2e.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out1 := filepath.Join(dir, "strict")
	code, out, errOut := e2e(t, "export", "playwright", "--config", dir, "--out", out1, "--require-recorded")
	if code == 0 || !strings.Contains(errOut, "fresh.e2e.yaml:4: click the Sign in button is not recorded yet; run e2e first") ||
		!strings.Contains(errOut, "fresh.e2e.yaml:5: expect the Launch rocket button visible is not recorded yet") {
		t.Errorf("--require-recorded: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(out1, "fresh.spec.ts")); err == nil {
		t.Error("--require-recorded wrote a spec")
	}

	out2 := filepath.Join(dir, "loose")
	code, out, errOut = e2e(t, "export", "playwright", "--config", dir, "--out", out2)
	if code != 0 || !strings.Contains(out, "2 steps to check") {
		t.Fatalf("export: exit %d\n%s%s", code, out, errOut)
	}
	b, err := os.ReadFile(filepath.Join(out2, "fresh.spec.ts"))
	if err != nil {
		t.Fatal(err)
	}
	spec := string(b)
	// Located now, so checked on the page, but not recorded: a TODO.
	if !strings.Contains(spec, "// TODO: not recorded yet; run e2e first (located by its description now)\n    await page.getByRole('button', { name: 'Sign in' }).click();") {
		t.Errorf("the located step:\n%s", spec)
	}
	// Not found at all: a guess from the description, with a TODO.
	if !strings.Contains(spec, "// TODO: not recorded yet; run e2e first\n    await expect(page.getByRole('button', { name: 'Launch rocket' })).toBeVisible();") {
		t.Errorf("the guessed step:\n%s", spec)
	}
}

// TestExportPlaywrightActs: act steps recorded by the agent (the scripted
// model of the demo) are exported as their trajectories under a goal
// comment, with the variables the agent typed as process.env, and pass in
// Playwright with no model anywhere.
func TestExportPlaywrightActs(t *testing.T) {
	t.Parallel()
	modules := npmCache(t)
	book, err := os.ReadFile("../../examples/agent/model.json")
	if err != nil {
		t.Fatal(err)
	}
	pb, err := scripted.Parse(book)
	if err != nil {
		t.Fatal(err)
	}
	model := httptest.NewServer(scripted.New(pb))
	t.Cleanup(model.Close)
	srv := httptest.NewServer(fixture.Handler(fixture.Options{}))
	t.Cleanup(srv.Close)
	files := []string{"examples/agent/signin.e2e.yaml", "examples/agent/archive.e2e.yaml", "examples/agent/cart.e2e.yaml"}
	dir := exportProject(t, srv.URL, files...)
	env := []string{"E2E_USER=alice@example.com", "E2E_PASSWORD=correct-horse", "OPENAI_API_KEY=none"} // for e2e and the specs
	if code, out, errOut := e2eEnv(t, env, "run", "--config", dir, "--model", "scripted", "--model-url", model.URL+"/v1"); code != 0 {
		t.Fatalf("e2e run: exit %d\n%s%s", code, out, errOut)
	}
	model.Close() // the export never asks it
	pw := filepath.Join(dir, "pw")
	code, out, errOut := e2eEnv(t, env, "export", "playwright", "--config", dir, "--out", pw, "--playwright-config", "--model", "scripted", "--require-recorded")
	if code != 0 {
		t.Fatalf("export: exit %d\n%s%s", code, out, errOut)
	}
	b, err := os.ReadFile(filepath.Join(pw, "signin.spec.ts"))
	if err != nil {
		t.Fatal(err)
	}
	spec := string(b)
	if !strings.Contains(spec, "// goal: sign in as {{ env.E2E_USER }} with the password {{ secret.E2E_PASSWORD }}") ||
		!regexp.MustCompile(`await fillSecret\(.*, process\.env\.E2E_PASSWORD!\);`).MatchString(spec) || strings.Contains(spec, "correct-horse") {
		t.Errorf("signin.spec.ts:\n%s", spec)
	}
	if err, out := playwright(t, modules, pw, append([]string{"E2E_BASE_URL=" + srv.URL}, env...), "playwright", "test", "--reporter=line", "--workers=2", "--output", t.TempDir()); err != nil ||
		!strings.Contains(out, "3 passed") {
		t.Fatalf("playwright test: %v\n%s", err, out)
	}
}

// TestSpecPathKeepsDirectories: test files of the same name in two
// directories get two specs.
func TestSpecPathKeepsDirectories(t *testing.T) {
	for file, want := range map[string]string{
		"proj/login.e2e.yaml":       "out/login.spec.ts",
		"proj/admin/login.e2e.yaml": "out/admin/login.spec.ts",
		"proj/a/b/users.e2e.yaml":   "out/a/b/users.spec.ts",
		"elsewhere/login.e2e.yaml":  "out/login.spec.ts",
	} {
		if got := specPath("out", "proj", file); got != filepath.FromSlash(want) {
			t.Errorf("%s: %s, want %s", file, got, want)
		}
	}
}

// TestExportKeepsANastySecretOut: a secret with a quote, a backslash and a
// space, typed by a recorded step, is in neither the spec nor what the
// export prints; the spec reads it from process.env.
func TestExportKeepsANastySecretOut(t *testing.T) {
	const secret = `pa"ss\word with space`
	t.Setenv("E2E_NASTY", secret)
	dir := project(t, fixtureServer(t), map[string]string{"nasty.e2e.yaml": `name: nasty
url: /login
steps:
  - type: { into: the Email field, text: "{{ secret.E2E_NASTY }}" }
  - expect: { visible: the Sign in button }
`})
	if code, out, errOut := e2e(t, "run", "--config", dir); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, errOut)
	}
	pw := filepath.Join(dir, "pw")
	code, out, errOut := e2e(t, "export", "playwright", "--config", dir, "--out", pw, "--require-recorded")
	if code != 0 {
		t.Fatalf("export: exit %d\n%s%s", code, out, errOut)
	}
	b, err := os.ReadFile(filepath.Join(pw, "nasty.spec.ts"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{secret, `pa\"ss`, `ss\\word`, "with space"} {
		if strings.Contains(string(b)+out+errOut, f) {
			t.Errorf("%q shows in the spec or the output:\n%s\n%s%s", f, b, out, errOut)
		}
	}
	if !strings.Contains(string(b), "), process.env.E2E_NASTY!);") || !strings.Contains(string(b), "await fillSecret(") {
		t.Errorf("the spec does not read the secret from the environment:\n%s", b)
	}
}
