package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportSaysWhereStepsWereRecorded: tests recorded by a run with
// --base-url (another origin than e2e.yaml's) and exported without it are
// not "not recorded yet": the export says which origin they were recorded
// against and to pass --base-url, in the spec's TODO and, with
// --require-recorded, as one error a line.
func TestExportSaysWhereStepsWereRecorded(t *testing.T) {
	t.Parallel()
	configured, other := fixtureServer(t), fixtureServer(t)
	dir := exportProject(t, configured)
	src := "name: elsewhere\nurl: /login\nsteps:\n  - click: the Sign in button\n  - expect: { visible: the Sign in button }\n"
	if err := os.WriteFile(filepath.Join(dir, "elsewhere.e2e.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := e2e(t, "run", "--config", dir, "--base-url", other); code != 0 {
		t.Fatalf("e2e run --base-url: exit %d\n%s%s", code, out, errOut)
	}
	want := "recorded against " + other + "; pass --base-url to export it"

	code, out, errOut := e2e(t, "export", "playwright", "--config", dir, "--out", filepath.Join(dir, "strict"), "--require-recorded")
	if code != exitUsage {
		t.Fatalf("--require-recorded: exit %d\n%s%s", code, out, errOut)
	}
	for _, line := range []string{
		"elsewhere.e2e.yaml:4: click the Sign in button: " + want + "\n",
		"elsewhere.e2e.yaml:5: expect the Sign in button visible: " + want + "\n",
	} {
		if !strings.Contains(errOut, line) {
			t.Errorf("--require-recorded: want the line %q in\n%s", line, errOut)
		}
	}
	if strings.Contains(errOut, "not recorded yet") {
		t.Errorf("--require-recorded says not recorded yet:\n%s", errOut)
	}

	pw := filepath.Join(dir, "loose")
	if code, out, errOut := e2e(t, "export", "playwright", "--config", dir, "--out", pw); code != 0 {
		t.Fatalf("export: exit %d\n%s%s", code, out, errOut)
	}
	b, err := os.ReadFile(filepath.Join(pw, "elsewhere.spec.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if spec := string(b); !strings.Contains(spec, "// TODO: "+want+" (located by its description now)") || strings.Contains(spec, "not recorded yet") {
		t.Errorf("the spec:\n%s", spec)
	}

	// With the origin they were recorded against, they export as recorded.
	if code, out, errOut := e2e(t, "export", "playwright", "--config", dir, "--base-url", other, "--out", filepath.Join(dir, "ok"), "--require-recorded"); code != 0 {
		t.Fatalf("export --base-url: exit %d\n%s%s", code, out, errOut)
	}
}
