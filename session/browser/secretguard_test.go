package browser

import (
	"errors"
	"strings"
	"testing"
)

// TestGuardSecretsReadsTheAddressFromTheBrowser: with GuardSecrets
// refusing the page's origin, Fill and Type enter no text holding a masked
// value (the field stays empty, the error says where the page is), while
// other text is typed as usual; on an allowed origin the secret is typed.
func TestGuardSecretsReadsTheAddressFromTheBrowser(t *testing.T) {
	const secret = "s3cret-Guarded-Value"
	p := newPage(t)
	ctx := ctxT(t)
	base := fixtureURL(t)
	open(t, p, strings.Replace(base, "127.0.0.1", "localhost", 1)+"/away/phish")
	p.MaskSecrets([]string{secret})
	p.GuardSecrets(func(u string) string {
		if strings.HasPrefix(u, "http://localhost:") {
			return "localhost is not an allowed origin"
		}
		return ""
	})
	field := find(t, snap(t, p, SnapshotOptions{}), "textbox", "Password")
	for _, typeIt := range []func() error{
		func() error { return p.Fill(ctx, field.Ref, "x"+secret, ActOptions{}) },
		func() error { return p.Type(ctx, field.Ref, secret, ActOptions{}) },
	} {
		err := typeIt()
		var refused *SecretRefusedError
		if !errors.As(err, &refused) || !strings.HasPrefix(refused.URL, "http://localhost:") || !strings.Contains(err.Error(), "the secret was not typed") {
			t.Fatalf("typing a secret: %v", err)
		}
	}
	if v, err := p.Value(ctx, field.Ref); err != nil || v != "" {
		t.Fatalf("the field holds %q (%v)", v, err)
	}
	if err := p.Fill(ctx, field.Ref, "not secret", ActOptions{}); err != nil {
		t.Fatalf("plain text: %v", err)
	}
	// On an allowed origin the secret is typed.
	open(t, p, base+"/away/phish")
	field = find(t, snap(t, p, SnapshotOptions{}), "textbox", "Password")
	if err := p.Fill(ctx, field.Ref, secret, ActOptions{}); err != nil {
		t.Fatalf("allowed origin: %v", err)
	}
}
