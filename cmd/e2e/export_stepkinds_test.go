package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/fixture"
)

// TestExportStepKindsPassInPlaywright: tests that clear a field, change a
// multi-select and answer dialogs pass in e2e, and their exported specs
// type-check and pass in Playwright itself: the dialogs are answered as
// e2e answers them (Playwright alone would dismiss the last confirm) and
// the other toppings stay chosen.
func TestExportStepKindsPassInPlaywright(t *testing.T) {
	t.Parallel()
	modules := npmCache(t)
	srv := httptest.NewServer(fixture.Handler(fixture.Options{}))
	t.Cleanup(srv.Close)
	files := []string{"cmd/e2e/testdata/export/fields.e2e.yaml", "cmd/e2e/testdata/export/dialogs.e2e.yaml"}
	dir := exportProject(t, srv.URL, files...)
	if code, out, errOut := e2eEnv(t, nil, "run", "--config", dir); code != 0 {
		t.Fatalf("e2e run: exit %d\n%s%s", code, out, errOut)
	}
	pw := filepath.Join(dir, "pw")
	if code, out, errOut := e2eEnv(t, nil, "export", "playwright", "--config", dir, "--out", pw, "--playwright-config"); code != 0 {
		t.Fatalf("export: exit %d\n%s%s", code, out, errOut)
	}
	if err := os.WriteFile(filepath.Join(pw, "tsconfig.json"), []byte(tsconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	if err, out := playwright(t, modules, pw, nil, "tsc", "--noEmit", "-p", "."); err != nil {
		t.Fatalf("tsc --noEmit: %v\n%s", err, out)
	}
	env := []string{"E2E_BASE_URL=" + srv.URL}
	if err, out := playwright(t, modules, pw, env, "playwright", "test", "--reporter=line", "--workers=1", "--output", t.TempDir()); err != nil ||
		!strings.Contains(out, "2 passed") {
		t.Fatalf("playwright test: %v\n%s", err, out)
	}
}
