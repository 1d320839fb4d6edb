package browser

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/ax"
)

// The secret typed in these tests: a quote, as redaction's nasty cases have.
const maskSecret = `hunter2"q`

// The /secretecho page paints the field's value and its echoes in one
// green (#00d000) that nothing else on the page uses, and its control line
// in blue (#3b82f6): a green pixel anywhere in a capture is a piece of the
// secret showing, and the control line must stay visible.
func isSecretGreen(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	return g>>8 >= 110 && r>>8 <= 70 && b>>8 <= 70
}

func isControlBlue(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	return b>>8 >= 170 && r>>8 <= 130 && g>>8 <= 170 && b>>8 > g>>8+40
}

// isMaskish says whether c is the mask colour within the error of a
// JPEG frame.
func isMaskish(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	return r>>8 >= 180 && b>>8 >= 150 && g>>8 <= 70
}

// near says whether c is within tol of want in every channel (JPEG frames
// are not exact).
func near(c, want color.Color, tol int) bool {
	r, g, b, _ := c.RGBA()
	wr, wg, wb, _ := want.RGBA()
	d := func(x, y uint32) bool { return math.Abs(float64(int(x>>8)-int(y>>8))) <= float64(tol) }
	return d(r, wr) && d(g, wg) && d(b, wb)
}

// rectOf is box (CSS pixels) in image pixels at scale, shrunk by inset.
func rectOf(box [4]float64, scale float64, inset int) image.Rectangle {
	return image.Rect(int(math.Ceil(box[0]*scale))+inset, int(math.Ceil(box[1]*scale))+inset,
		int(math.Floor((box[0]+box[2])*scale))-inset, int(math.Floor((box[1]+box[3])*scale))-inset)
}

// count is how many pixels of img within r satisfy ok.
func count(img image.Image, r image.Rectangle, ok func(color.Color) bool) (hits, all int) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			all++
			if ok(img.At(x, y)) {
				hits++
			}
		}
	}
	return hits, all
}

// echoBoxes are where /secretecho paints the field, the echoed text, the
// shadow root's echo and the control line, in CSS pixels.
type echoBoxes struct {
	Field, Echo, Shadow, Control [4]float64
}

func secretEchoBoxes(t *testing.T, p *Page) echoBoxes {
	t.Helper()
	var b echoBoxes
	const js = `() => {
		const box = (r) => [r.left, r.top, r.width, r.height];
		const text = (el) => { const g = document.createRange(); g.selectNodeContents(el); return box(g.getBoundingClientRect()); };
		const host = document.querySelector('[data-testid=shadow-host]');
		return { Field: box(document.getElementById('code').getBoundingClientRect()),
			Echo: text(document.querySelector('[data-testid=echo]')),
			Shadow: text(host.shadowRoot.querySelector('b')),
			Control: text(document.querySelector('[data-testid=control]')) };
	}`
	if err := p.Eval(ctxT(t), &b, js); err != nil {
		t.Fatal(err)
	}
	return b
}

func mutations(t *testing.T, p *Page) int {
	t.Helper()
	var n int
	if err := p.Eval(ctxT(t), &n, `() => window.__e2e.track.mutations`); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestScreenshotMasksSecretsTypedAndEchoed(t *testing.T) {
	p := newPage(t)
	ctx := ctxT(t)
	open(t, p, fixtureURL(t)+"/secretecho")
	p.MaskSecrets([]string{maskSecret})
	field := find(t, snap(t, p, SnapshotOptions{}), "textbox", "Access code")
	if err := p.Fill(ctx, field.Ref, maskSecret, ActOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Settle(ctx, SettleOptions{Quiet: 50 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	boxes := secretEchoBoxes(t, p)
	if boxes.Echo[2] < 50 || boxes.Shadow[2] < 50 {
		t.Fatalf("the page did not echo the secret: %+v", boxes)
	}
	before := snap(t, p, SnapshotOptions{}).Text(ax.TextOptions{})
	muts := mutations(t, p)

	shot, err := p.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}

	// Masking leaves the DOM alone: no mutation, the same snapshot.
	if m := mutations(t, p); m != muts {
		t.Errorf("taking a masked screenshot made %d DOM mutations", m-muts)
	}
	if after := snap(t, p, SnapshotOptions{}).Text(ax.TextOptions{}); after != before {
		t.Errorf("the snapshot changed across a masked screenshot:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := count(img, img.Bounds(), isSecretGreen); n > 0 {
		t.Errorf("%d pixels of the secret's colour show in the screenshot", n)
	}
	for name, box := range map[string][4]float64{"the field": boxes.Field, "the echo": boxes.Echo, "the shadow root's echo": boxes.Shadow} {
		r := rectOf(box, 1, 0)
		if hits, all := count(img, r, func(c color.Color) bool { return c == color.Color(maskColor) || near(c, maskColor, 0) }); all == 0 || hits != all {
			t.Errorf("%s (%v): %d of %d pixels are the mask colour, want all", name, r, hits, all)
		}
	}
	ctl := rectOf(boxes.Control, 1, 0)
	if n, _ := count(img, ctl, func(c color.Color) bool { return near(c, maskColor, 0) }); n > 0 {
		t.Errorf("the control line (%v) has %d masked pixels", ctl, n)
	}
	if n, _ := count(img, ctl, isControlBlue); n < 50 {
		t.Errorf("the control line (%v) shows %d blue pixels: it should be visible", ctl, n)
	}

	// The field stays masked once its value changed.
	if err := p.Eval(ctx, nil, `() => { const f = document.getElementById('code'); f.value = 'something else'; }`); err != nil {
		t.Fatal(err)
	}
	shot, err = p.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if img, err = png.Decode(bytes.NewReader(shot)); err != nil {
		t.Fatal(err)
	}
	r := rectOf(boxes.Field, 1, 0)
	if hits, all := count(img, r, func(c color.Color) bool { return near(c, maskColor, 0) }); all == 0 || hits != all {
		t.Errorf("the field whose value changed (%v): %d of %d pixels masked, want all", r, hits, all)
	}
}

func TestScreencastFramesNeverShowASecretEvenWhileTyped(t *testing.T) {
	p := newPage(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	open(t, p, fixtureURL(t)+"/secretecho")
	p.MaskSecrets([]string{maskSecret})
	field := find(t, snap(t, p, SnapshotOptions{}), "textbox", "Access code")
	sc, err := p.StartScreencast(ctx, ScreencastOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Stop()
	// Key by key: the field and both echoes grow one character a frame.
	if err := p.Type(ctx, field.Ref, maskSecret, ActOptions{}); err != nil {
		t.Fatal(err)
	}
	sc.mu.Lock()
	typed := len(sc.frames)
	sc.mu.Unlock()
	// Keep painting away from the secret until frames painted after the
	// typing have come in.
	for i := 0; ctx.Err() == nil; i++ {
		sc.mu.Lock()
		n := len(sc.frames)
		sc.mu.Unlock()
		if n >= typed+3 {
			break
		}
		const js = `(i) => new Promise((r) => { document.querySelector('[data-testid=control]').textContent = 'Nothing secret here ' + i; requestAnimationFrame(() => requestAnimationFrame(r)); })`
		if err := p.Eval(ctx, nil, js, i); err != nil {
			t.Fatal(err)
		}
	}
	boxes := secretEchoBoxes(t, p)
	frames := sc.Stop()
	if len(frames) < 3 {
		t.Fatalf("%d frames", len(frames))
	}
	var last image.Image
	for i, f := range frames {
		img, err := jpeg.Decode(bytes.NewReader(f.JPEG))
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if n, _ := count(img, img.Bounds(), isSecretGreen); n > 0 {
			t.Errorf("frame %d of %d: %d pixels of the secret's colour show", i+1, len(frames), n)
		}
		last = img
	}
	scale := float64(last.Bounds().Dx()) / float64(shared.opts.Width)
	for name, box := range map[string][4]float64{"the field": boxes.Field, "the echo": boxes.Echo, "the shadow root's echo": boxes.Shadow} {
		r := rectOf(box, scale, 2)
		if hits, all := count(last, r, isMaskish); all == 0 || hits != all {
			t.Errorf("last frame, %s (%v): %d of %d pixels near the mask colour, want all", name, r, hits, all)
		}
	}
	ctl := rectOf(boxes.Control, scale, 0)
	if n, _ := count(last, ctl, isControlBlue); n < 20 {
		t.Errorf("last frame, the control line (%v) shows %d blue pixels: it should be visible", ctl, n)
	}
}

// TestScreenshotMasksSecretsWhereverThePagePaintsThem: split over
// elements, in a field's value the page set, in a chosen option, in a
// same-origin frame; a line without the secret stays as it is.
func TestScreenshotMasksSecretsWhereverThePagePaintsThem(t *testing.T) {
	p := newPage(t)
	ctx := ctxT(t)
	const page = `<!doctype html><body style="margin:0;font:24px monospace;background:#fff">
<p id="split">token: hun<b>ter2</b>"q!</p>
<p><input id="field" value='prefilled hunter2"q' style="font:24px monospace;width:30ch"></p>
<p><select id="pick" style="font:24px monospace"><option>plain</option><option selected>hunter2"q</option></select></p>
<iframe id="frame" style="border:4px solid #000;padding:6px;width:500px;height:80px" srcdoc="<body style='margin:0;font:24px monospace'><span id=inner>in a frame: hunter2&quot;q</span></body>"></iframe>
<p id="control" style="color:#00f">nothing to hide</p>
</body>`
	open(t, p, serveHTML(t, page))
	p.MaskSecrets([]string{maskSecret})
	var boxes map[string][4]float64
	const js = `() => {
		const box = (r) => [r.left, r.top, r.width, r.height];
		const f = document.getElementById('frame'), cs = getComputedStyle(f), fr = f.getBoundingClientRect();
		const inner = f.contentDocument.getElementById('inner').firstChild;
		const g = f.contentDocument.createRange();
		g.setStart(inner, inner.data.indexOf('hunter2')); g.setEnd(inner, inner.data.length);
		const ir = g.getBoundingClientRect(), dx = fr.left + f.clientLeft + parseFloat(cs.paddingLeft), dy = fr.top + f.clientTop + parseFloat(cs.paddingTop);
		const split = document.getElementById('split'), s = document.createRange();
		s.setStart(split.firstChild, 7); s.setEnd(split.lastChild, 2);
		const c = document.createRange(); c.selectNodeContents(document.getElementById('control'));
		return { split: box(s.getBoundingClientRect()), field: box(document.getElementById('field').getBoundingClientRect()),
			pick: box(document.getElementById('pick').getBoundingClientRect()),
			frame: [ir.left + dx, ir.top + dy, ir.width, ir.height], control: box(c.getBoundingClientRect()) };
	}`
	if err := p.Eval(ctx, &boxes, js); err != nil {
		t.Fatal(err)
	}
	shot, err := p.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	masked := func(c color.Color) bool { return near(c, maskColor, 0) }
	for _, name := range []string{"split", "field", "pick", "frame"} {
		r := rectOf(boxes[name], 1, 0)
		if hits, all := count(img, r, masked); all == 0 || hits != all {
			t.Errorf("%s (%v): %d of %d pixels masked, want all", name, r, hits, all)
		}
	}
	if n, _ := count(img, rectOf(boxes["control"], 1, 0), masked); n > 0 {
		t.Errorf("the control line has %d masked pixels", n)
	}
}

// TestMaskingKeepsSecretsFromThePagesScripts: finding where a secret is
// painted runs out of the page's reach, so that a page the secret was never
// typed into cannot learn it by wrapping the tool's functions or built-ins.
func TestMaskingKeepsSecretsFromThePagesScripts(t *testing.T) {
	p := newPage(t)
	ctx := ctxT(t)
	const page = `<!doctype html><body><p>An ordinary page.</p><script>
window.__seen = [];
const note = (a) => { try { window.__seen.push(JSON.stringify(a)); } catch (e) {} };
for (const m of ['includes', 'indexOf', 'endsWith', 'slice']) {
  const f = String.prototype[m];
  String.prototype[m] = function (...a) { note(a); return f.apply(this, a); };
}
const wrap = () => {
  const e = window.__e2e;
  if (!e || e.__wrapped) return;
  for (const k of Object.keys(e)) if (typeof e[k] === 'function') { const f = e[k]; e[k] = function (...a) { note(a); return f.apply(this, a); }; }
  e.__wrapped = true;
};
wrap();
addEventListener('load', wrap);
</script></body>`
	open(t, p, serveHTML(t, page))
	p.MaskSecrets([]string{maskSecret})
	if _, err := p.Screenshot(ctx); err != nil {
		t.Fatal(err)
	}
	sc, err := p.StartScreencast(ctx, ScreencastOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		const js = `(i) => new Promise((r) => { document.querySelector('p').textContent = 'An ordinary page ' + i; requestAnimationFrame(() => requestAnimationFrame(r)); })`
		if err := p.Eval(ctx, nil, js, i); err != nil {
			t.Fatal(err)
		}
	}
	sc.Stop()
	var seen []string
	if err := p.Eval(ctx, &seen, `() => window.__seen`); err != nil {
		t.Fatal(err)
	}
	for _, s := range seen {
		if strings.Contains(s, "hunter2") {
			t.Fatalf("the page's scripts saw the secret: %s", s)
		}
	}
	if len(seen) == 0 {
		t.Fatal("the page's wrappers saw nothing at all: the test cannot tell")
	}
}

// TestFieldInAFrameTypedASecretIsMasked: a field in a same-origin frame is
// marked across frames and masked whole, whatever it holds later.
func TestFieldInAFrameTypedASecretIsMasked(t *testing.T) {
	p := newPage(t)
	ctx := ctxT(t)
	open(t, p, fixtureURL(t)+"/a11y")
	p.MaskSecrets([]string{maskSecret})
	field := find(t, snap(t, p, SnapshotOptions{}), "textbox", "Frame field")
	if err := p.Fill(ctx, field.Ref, maskSecret, ActOptions{}); err != nil {
		t.Fatal(err)
	}
	// The value no longer holds the secret: only the mark masks it now.
	const js = `() => {
		const f = document.querySelector('[data-testid=frame]'), cs = getComputedStyle(f), fr = f.getBoundingClientRect();
		const el = f.contentDocument.getElementById('frame-field'); el.value = 'x';
		const r = el.getBoundingClientRect();
		return [r.left + fr.left + f.clientLeft + parseFloat(cs.paddingLeft), r.top + fr.top + f.clientTop + parseFloat(cs.paddingTop), r.width, r.height];
	}`
	var box [4]float64
	if err := p.Eval(ctx, &box, js); err != nil {
		t.Fatal(err)
	}
	shot, err := p.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	r := rectOf(box, 1, 0).Intersect(img.Bounds())
	if hits, all := count(img, r, func(c color.Color) bool { return near(c, maskColor, 0) }); all == 0 || hits != all {
		t.Errorf("the frame's field (%v): %d of %d pixels masked, want all", r, hits, all)
	}
}

// TestScreenshotMasksASecretWhoseWhiteSpaceThePageChanged: pages do not
// paint a secret's white space as it was typed. Given only the secret as
// typed, a capture masks it where the page collapsed its white space (as
// innerText does), dropped its line break (an <input>'s value set), kept a
// line break as a space (an <input> typed into), wrote it as &nbsp; and
// <br>, or as a <textarea> keeps CR LF; a line holding only pieces of it
// stays.
func TestScreenshotMasksASecretWhoseWhiteSpaceThePageChanged(t *testing.T) {
	p := newPage(t)
	ctx := ctxT(t)
	const secret = "Rk7\tmoss  fern\r\nQz4"
	const page = `<!doctype html><body style="margin:0;font:24px monospace;background:#fff;color:#00d000">
<p id="collapsed">Rk7 moss fern Qz4</p>
<p id="stripped">Rk7	moss  fernQz4</p>
<p id="nbsp">Rk7&nbsp;moss&nbsp;&nbsp;fern<br>Qz4</p>
<p><input id="field" style="font:24px monospace;width:30ch;color:#00d000"></p>
<p><textarea id="area" rows="2" style="font:24px monospace;width:30ch;color:#00d000"></textarea></p>
<p id="control" style="color:#00f">nothing to hide: moss fern, Qz4</p>
</body>`
	open(t, p, serveHTML(t, page))
	if err := p.Eval(ctx, nil, `() => {
		document.getElementById('field').value = 'Rk7\tmoss  fern  Qz4';
		document.getElementById('area').value = 'Rk7\tmoss  fern\r\nQz4';
	}`); err != nil {
		t.Fatal(err)
	}
	p.MaskSecrets([]string{secret})
	var boxes map[string][4]float64
	const js = `() => {
		const box = (r) => [r.left, r.top, r.width, r.height];
		const text = (id) => { const g = document.createRange(); g.selectNodeContents(document.getElementById(id)); return box(g.getBoundingClientRect()); };
		return { collapsed: text('collapsed'), stripped: text('stripped'), control: text('control'),
			field: box(document.getElementById('field').getBoundingClientRect()),
			area: box(document.getElementById('area').getBoundingClientRect()) };
	}`
	if err := p.Eval(ctx, &boxes, js); err != nil {
		t.Fatal(err)
	}
	shot, err := p.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := count(img, img.Bounds(), isSecretGreen); n > 0 {
		t.Errorf("%d pixels of the secret's colour show in the screenshot", n)
	}
	masked := func(c color.Color) bool { return near(c, maskColor, 0) }
	for _, name := range []string{"collapsed", "stripped", "field", "area"} {
		r := rectOf(boxes[name], 1, 0)
		if hits, all := count(img, r, masked); all == 0 || hits != all {
			t.Errorf("%s (%v): %d of %d pixels masked, want all", name, r, hits, all)
		}
	}
	ctl := rectOf(boxes["control"], 1, 0)
	if n, _ := count(img, ctl, masked); n > 0 {
		t.Errorf("the control line (%v) has %d masked pixels", ctl, n)
	}
	if n, _ := count(img, ctl, isControlBlue); n < 50 {
		t.Errorf("the control line (%v) shows %d blue pixels: it should be visible", ctl, n)
	}
}
