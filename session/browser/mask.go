package browser

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

//go:embed mask.js
var maskJS string

// maskWorld is the name of the isolated world mask.js runs in. Chrome keeps
// one world of a name per document, so asking for it again returns it.
const maskWorld = "__e2e_mask"

// maskColor is the colour of the opaque boxes that hide secrets in
// captures (Playwright's default mask colour).
var maskColor = color.RGBA{R: 0xff, G: 0x00, B: 0xff, A: 0xff}

// maskPad is how many image pixels a mask box reaches beyond the box the
// page gave, for antialiasing and rounding.
const maskPad = 2

// maskState holds the strings no capture of the page may show.
type maskState struct {
	mu      sync.Mutex
	needles []string
	refuse  func(url string) string // see GuardSecrets
}

// MaskSecrets makes every later capture of the page (Screenshot, and the
// frames of a Screencast) hide each of values behind an opaque box wherever
// the page paints it: in text (also text split over elements), in open
// shadow roots and same-origin frames, in a field's value or placeholder, in
// a select's chosen option. A value holding white space is found however
// the page changed its white space (collapsed, as innerText does; a line
// break dropped or made a space, as an <input> does; written as &nbsp; or
// <br>): each run of it matches any run of white space, or none; a value
// made only of white space is not looked for. A field that Type or Fill
// entered a text containing one of values into is masked whole from before
// its first keystroke for as long as it lives, whatever it holds later;
// while a value is typed, the part of it typed so far is masked too. Cross-origin frames
// and closed shadow roots are not reached. The values are looked for by a
// script in an isolated world (mask.js): the page's own scripts never see
// them. MaskSecrets replaces the values given before; with none (the
// default) captures cost nothing extra.
func (p *Page) MaskSecrets(values []string) {
	var keep []string
	seen := map[string]bool{}
	for _, v := range values {
		if v != "" && !seen[v] {
			seen[v] = true
			keep = append(keep, v)
		}
	}
	p.mask.mu.Lock()
	p.mask.needles = keep
	p.mask.mu.Unlock()
}

// maskNeedles is a copy of the values captures must hide (nil when none).
func (p *Page) maskNeedles() []string {
	p.mask.mu.Lock()
	defer p.mask.mu.Unlock()
	if len(p.mask.needles) == 0 {
		return nil
	}
	return append([]string{}, p.mask.needles...)
}

// markSecretField remembers, in the page, that ref is a field a secret goes
// into when text holds one of the masked values, so that captures mask it
// from now on. It costs nothing when nothing is masked. An error means the
// field could not be marked: the caller must not type.
func (p *Page) markSecretField(ctx context.Context, action, ref, text string) error {
	needles := p.maskNeedles()
	secret := false
	for _, n := range needles {
		if strings.Contains(text, n) {
			secret = true
			break
		}
	}
	if !secret {
		return nil
	}
	if err := p.checkSecretOrigin(ctx, action, ref); err != nil {
		return err
	}
	ok, err := p.markField(ctx, ref)
	if err != nil {
		return fmt.Errorf("%s %s: mark the field for masking: %w", action, ref, err)
	}
	if !ok {
		return p.notFit(ctx, action, ref, ReasonDetached, "")
	}
	return nil
}

// GuardSecrets makes Type and Fill refuse to enter a text holding a masked
// value (see MaskSecrets) into the page while its main frame is at an
// address refuse names a reason for ("" lets it): the address is read
// from the browser's frame tree right before the field is focused, never
// from the page's scripts. nil (the default) refuses nothing.
func (p *Page) GuardSecrets(refuse func(url string) string) {
	p.mask.mu.Lock()
	p.mask.refuse = refuse
	p.mask.mu.Unlock()
}

// checkSecretOrigin returns a *SecretRefusedError when the page is where
// GuardSecrets refuses secrets.
func (p *Page) checkSecretOrigin(ctx context.Context, action, ref string) error {
	p.mask.mu.Lock()
	refuse := p.mask.refuse
	p.mask.mu.Unlock()
	if refuse == nil {
		return nil
	}
	u, err := p.MainFrameURL(ctx)
	if err != nil {
		return fmt.Errorf("%s %s: %w", action, ref, err)
	}
	if why := refuse(u); why != "" {
		return &SecretRefusedError{Action: action, Ref: ref, URL: u, Why: why}
	}
	return nil
}

// markField hands the element behind ref from the page's world, where refs
// live, to the masking world, which remembers it; false when ref is gone.
func (p *Page) markField(ctx context.Context, ref string) (bool, error) {
	rp, cancel := p.with(ctx)
	defer cancel()
	iso, err := p.maskContext(rp, true)
	if err != nil {
		return false, err
	}
	el, err := rp.Evaluate(rod.Eval(`(ref) => (window.__e2e ? window.__e2e.resolve(ref) : null)`, ref).ByObject())
	if err != nil {
		return false, classify(ctx, err)
	}
	if el.ObjectID == "" {
		return false, nil
	}
	defer func() { _ = proto.RuntimeReleaseObject{ObjectID: el.ObjectID}.Call(rp) }()
	node, err := proto.DOMDescribeNode{ObjectID: el.ObjectID}.Call(rp)
	if err != nil {
		return false, classify(ctx, err)
	}
	there, err := proto.DOMResolveNode{BackendNodeID: node.Node.BackendNodeID, ExecutionContextID: iso}.Call(rp)
	if err != nil {
		return false, classify(ctx, err)
	}
	defer func() { _ = proto.RuntimeReleaseObject{ObjectID: there.Object.ObjectID}.Call(rp) }()
	res, err := proto.RuntimeCallFunctionOn{ObjectID: there.Object.ObjectID, ReturnByValue: true,
		FunctionDeclaration: `function () { return window.__e2eMask.mark(this); }`}.Call(rp)
	if err != nil {
		return false, classify(ctx, err)
	}
	if res.ExceptionDetails != nil {
		return false, fmt.Errorf("mark: %s", exceptionText(res.ExceptionDetails))
	}
	return res.Result.Value.Bool(), nil
}

// maskContext is the execution context of the masking world in the page's
// current document; install also runs mask.js there (once per document:
// it is a no-op when the world has it).
func (p *Page) maskContext(rp *rod.Page, install bool) (proto.RuntimeExecutionContextID, error) {
	w, err := proto.PageCreateIsolatedWorld{FrameID: p.rod.FrameID, WorldName: maskWorld}.Call(rp)
	if err != nil {
		return 0, classify(rp.GetContext(), err)
	}
	if !install {
		return w.ExecutionContextID, nil
	}
	res, err := proto.RuntimeEvaluate{Expression: maskJS, ContextID: w.ExecutionContextID}.Call(rp)
	if err != nil {
		return 0, classify(rp.GetContext(), err)
	}
	if res.ExceptionDetails != nil {
		return 0, fmt.Errorf("install the masking script: %s", exceptionText(res.ExceptionDetails))
	}
	return w.ExecutionContextID, nil
}

func exceptionText(d *proto.RuntimeExceptionDetails) string {
	if d.Exception != nil && d.Exception.Description != "" {
		return d.Exception.Description
	}
	return d.Text
}

// maskCall runs window.__e2eMask[method](needles) in the masking world and
// decodes its result into out. A document that is being replaced is asked
// again, in the new one.
func (p *Page) maskCall(ctx context.Context, out any, method string, needles []string) error {
	if needles == nil {
		needles = []string{} // a JSON array, not null
	}
	rp, cancel := p.with(ctx)
	defer cancel()
	for attempt := 0; ; attempt++ {
		err := p.maskCallOnce(rp, out, method, needles)
		if err == nil || attempt == 2 || !isContextDestroyed(err) {
			return err
		}
	}
}

func (p *Page) maskCallOnce(rp *rod.Page, out any, method string, needles []string) error {
	for install := false; ; install = true {
		iso, err := p.maskContext(rp, install)
		if err != nil {
			return err
		}
		res, err := proto.RuntimeCallFunctionOn{ExecutionContextID: iso, ReturnByValue: true,
			FunctionDeclaration: `function (m, a) { return window.__e2eMask ? JSON.stringify(window.__e2eMask[m](a)) : '__missing__'; }`,
			Arguments:           []*proto.RuntimeCallArgument{{Value: gson.New(method)}, {Value: gson.New(needles)}}}.Call(rp)
		if err != nil {
			return classify(rp.GetContext(), err)
		}
		if res.ExceptionDetails != nil {
			return fmt.Errorf("%s: %s", method, exceptionText(res.ExceptionDetails))
		}
		s := res.Result.Value.Str()
		if s == "__missing__" {
			if install {
				return fmt.Errorf("%s: the masking script did not install", method)
			}
			continue
		}
		if err := json.Unmarshal([]byte(s), out); err != nil {
			return fmt.Errorf("decode %s result: %w", method, err)
		}
		return nil
	}
}

// maskBoxes are the places where the page paints a secret, as x, y, w, h
// quadruples in CSS pixels of the top viewport. All means there were too
// many to list: the whole capture is masked.
type maskBoxes struct {
	B   []float64 `json:"b"`
	All bool      `json:"all"`
}

func (m maskBoxes) empty() bool { return !m.All && len(m.B) < 4 }

// secretBoxes asks the page where it paints one of needles now.
func (p *Page) secretBoxes(ctx context.Context, needles []string) (maskBoxes, error) {
	var m maskBoxes
	err := p.maskCall(ctx, &m, "boxes", needles)
	return m, err
}

// takeBoxes asks the page where it paints one of needles now and where it
// painted one in the states it rendered since the last take (the page
// records them from the first take on). A document that is being replaced
// is asked again, in the new one.
func (p *Page) takeBoxes(ctx context.Context, needles []string) (maskBoxes, error) {
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var m maskBoxes
	err := p.maskCall(cctx, &m, "take", needles)
	return m, err
}

// paintMask fills every box of sets, scaled from CSS pixels to image pixels
// by scale and moved down by dy image pixels, with maskColor, maskPad
// pixels wider on each side; a set with All fills the whole image.
func paintMask(img draw.Image, scale, dy float64, sets ...maskBoxes) {
	bounds := img.Bounds()
	src := image.NewUniform(maskColor)
	for _, m := range sets {
		if m.All {
			draw.Draw(img, bounds, src, image.Point{}, draw.Src)
			return
		}
	}
	for _, m := range sets {
		for i := 0; i+3 < len(m.B); i += 4 {
			x, y, w, h := m.B[i], m.B[i+1], m.B[i+2], m.B[i+3]
			r := image.Rect(
				int(math.Floor(x*scale))-maskPad, int(math.Floor(y*scale+dy))-maskPad,
				int(math.Ceil((x+w)*scale))+maskPad, int(math.Ceil((y+h)*scale+dy))+maskPad,
			).Add(bounds.Min).Intersect(bounds)
			if !r.Empty() {
				draw.Draw(img, r, src, image.Point{}, draw.Src)
			}
		}
	}
}

// toRGBA is img as an image that can be drawn on.
func toRGBA(img image.Image) *image.RGBA {
	if m, ok := img.(*image.RGBA); ok {
		return m
	}
	m := image.NewRGBA(img.Bounds())
	draw.Draw(m, m.Bounds(), img, m.Bounds().Min, draw.Src)
	return m
}

// maskPNG paints the boxes of sets on a PNG screenshot of a viewport width
// CSS pixels wide; without boxes it returns b unchanged.
func maskPNG(b []byte, width float64, sets ...maskBoxes) ([]byte, error) {
	if allEmpty(sets) {
		return b, nil
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("mask secrets: decode screenshot: %w", err)
	}
	m := toRGBA(img)
	scale := 1.0
	if width > 0 {
		scale = float64(m.Bounds().Dx()) / width
	}
	paintMask(m, scale, 0, sets...)
	var out bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&out, m); err != nil {
		return nil, fmt.Errorf("mask secrets: encode screenshot: %w", err)
	}
	return out.Bytes(), nil
}

// maskJPEG paints the boxes of sets on a screencast frame of a viewport
// width CSS pixels wide (the frame may be scaled down) whose content starts
// offsetTop CSS pixels down; without boxes it returns b unchanged.
func maskJPEG(b []byte, width, offsetTop float64, quality int, sets ...maskBoxes) ([]byte, error) {
	if allEmpty(sets) {
		return b, nil
	}
	img, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("mask secrets: decode frame: %w", err)
	}
	m := toRGBA(img)
	scale := 1.0
	if width > 0 {
		scale = float64(m.Bounds().Dx()) / width
	}
	paintMask(m, scale, offsetTop*scale, sets...)
	var out bytes.Buffer
	if err := jpeg.Encode(&out, m, &jpeg.Options{Quality: quality}); err != nil {
		return nil, fmt.Errorf("mask secrets: encode frame: %w", err)
	}
	return out.Bytes(), nil
}

func allEmpty(sets []maskBoxes) bool {
	for _, m := range sets {
		if !m.empty() {
			return false
		}
	}
	return true
}
