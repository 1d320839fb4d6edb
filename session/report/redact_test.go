package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/redact"
)

// TestReportsRedactEveryForm: a run whose results quote a secret (Go-quoted,
// URL-encoded, in a heal reason and the failure snapshot) writes JSON, JUnit,
// HTML and a step summary that hold no form of it and stay well-formed.
func TestReportsRedactEveryForm(t *testing.T) {
	for _, secret := range []string{`hunter2"q`, "a&b <c>", "pässwörd✓ x", `back\slash`} {
		in := sample(t)
		in.Redactor = redact.New(secret)
		bad := &in.Report.Tests[3]
		bad.Error = fmt.Sprintf("step 2 (line 6): got %q at /echo?pw=%s", secret, url.QueryEscape(secret))
		bad.Steps[1].Error = bad.Error
		bad.Steps[1].Note = "typed " + secret
		in.Report.Details[3].Snapshot = fmt.Sprintf("- textbox \"Password\": %s\n- link %q [url=/echo?pw=%s]\n", secret, secret, url.PathEscape(secret))
		in.Heals[3].Reason = "the page said " + secret
		dir := t.TempDir()
		t.Setenv("GITHUB_STEP_SUMMARY", "")
		if err := WriteJSON(filepath.Join(dir, "r.json"), in); err != nil {
			t.Fatal(err)
		}
		if err := WriteJUnit(filepath.Join(dir, "junit.xml"), in); err != nil {
			t.Fatal(err)
		}
		if _, err := WriteHTML(filepath.Join(dir, "html"), in); err != nil {
			t.Fatal(err)
		}
		if err := AppendGitHubSummary(filepath.Join(dir, "summary.md"), in); err != nil {
			t.Fatal(err)
		}
		var ann bytes.Buffer
		WriteGitHubAnnotations(&ann, in)
		if err := os.WriteFile(filepath.Join(dir, "annotations.txt"), ann.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, f := range redact.Forms(secret) {
				if strings.Contains(string(b), f) {
					t.Errorf("%q: %s holds %q", secret, filepath.Base(p), f)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(dir, "r.json"))
		if !json.Valid(b) || !strings.Contains(string(b), redact.Marker) {
			t.Errorf("%q: the JSON report is not valid or not redacted:\n%s", secret, b)
		}
		x, _ := os.ReadFile(filepath.Join(dir, "junit.xml"))
		if err := xml.Unmarshal(x, new(struct{})); err != nil {
			t.Errorf("%q: junit: %v", secret, err)
		}
	}
}
