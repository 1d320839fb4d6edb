package run

import "github.com/e2e-dev/e2e/session/redact"

// addSecrets remembers secret values the test resolved: for the test; for
// the redactor every output shares, before any text holding them leaves;
// and for its page, which masks them, in the forms a page may paint them
// in, in every later screenshot and video frame (see
// browser.Page.MaskSecrets).
func (tr *testRun) addSecrets(secrets []string) {
	if len(secrets) == 0 {
		return
	}
	tr.secrets = append(tr.secrets, secrets...)
	tr.red.Add(secrets...)
	if tr.page != nil {
		tr.page.MaskSecrets(maskForms(tr.secrets))
	}
}

// maskForms is each secret in every form the redactor knows it by
// ([redact.Forms]): as typed, and as a page may show it, URL-encoded (a page
// that prints its address), JSON- and Go-quoted (a page that prints raw
// JSON), HTML-escaped (a page that prints markup), with its white space as
// pages show it (collapsed, trimmed, a line break as a field keeps it).
// Empty values and values made only of white space are left out;
// duplicates are removed by the page.
func maskForms(secrets []string) []string {
	var out []string
	for _, s := range secrets {
		if s != "" {
			out = append(out, redact.Forms(s)...)
		}
	}
	return out
}
