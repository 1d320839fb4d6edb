package run

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/testfile"
)

// On /secretecho the field's value and the page's echoes of it are the only
// pixels of their green (#00d000): a green pixel in a capture is a piece of
// the secret showing. Masks are magenta.
func secretPixels(img image.Image) (green, magenta int) {
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

func TestScreenshotsAndVideoMaskATypedSecret(t *testing.T) {
	e := newEnv(t)
	e.cfg.Timeouts.Step = 1500 * time.Millisecond
	e.vars["E2E_CODE"] = `hunter2"q`
	tt, err := testfile.Parse("secret.e2e.yaml", []byte(`name: secret echo
url: /secretecho
steps:
  - type: { into: the Access code field, text: "{{ secret.E2E_CODE }}" }
  - expect: { visible: the Launch rocket button }
`))
	if err != nil {
		t.Fatal(err)
	}
	rep := e.runSuite([]*testfile.Test{tt}, SuiteOptions{Screenshots: ScreenshotsOn, Video: VideoFailures})
	res := rep.Tests[0]
	if res.Status != "failed" || len(res.Steps) != 2 || res.Steps[0].Status == session.StatusFailed {
		t.Fatalf("want the typing to pass and the expectation to fail:\n%s", e.out.String())
	}
	for _, s := range res.Steps {
		b, err := os.ReadFile(rep.Open(s.Screenshot))
		if err != nil {
			t.Fatalf("step %d: %v", s.Index+1, err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("step %d: %v", s.Index+1, err)
		}
		if green, magenta := secretPixels(img); green > 0 || magenta == 0 {
			t.Errorf("step %d's screenshot: %d pixels of the secret show, %d masked", s.Index+1, green, magenta)
		}
	}
	frames := rep.Details[0].Video
	if len(frames) == 0 {
		t.Fatal("the failed test kept no video")
	}
	masked := 0
	for i, path := range frames {
		b, err := os.ReadFile(rep.Open(path))
		if err != nil {
			t.Fatal(err)
		}
		img, err := jpeg.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("frame %d: %v", i+1, err)
		}
		green, magenta := secretPixels(img)
		if green > 0 {
			t.Errorf("video frame %d of %d: %d pixels of the secret show", i+1, len(frames), green)
		}
		if magenta > 0 {
			masked++
		}
	}
	if masked == 0 {
		t.Errorf("none of the %d video frames shows a mask", len(frames))
	}
}

func TestMaskFormsCoverEncodedSpellings(t *testing.T) {
	got := maskForms([]string{`a b&"%<é`, ""})
	for _, want := range []string{
		`a b&"%<é`,              // as typed
		`a+b%26%22%25%3C%C3%A9`, // in a query
		`a%20b&%22%25%3C%C3%A9`, // in a path
		`a b\u0026\"%\u003cé`,   // in JSON
		`a b&\"%<é`,             // Go-quoted
		`a b&amp;&#34;%&lt;é`,   // in markup
	} {
		if !slices.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
	if slices.Contains(got, "") {
		t.Error("an empty secret gave an empty form: it would match everywhere")
	}
}
