package browser

import (
	"bytes"
	"context"
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
)

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
}

// MaskSecrets makes every later capture of the page (Screenshot, and the
// frames of a Screencast) hide each of values behind an opaque box wherever
// the page paints it: in text (also text split over elements), in open
// shadow roots and same-origin frames, in a field's value or placeholder, in
// a select's chosen option. A field that Type or Fill entered a text
// containing one of values into is masked whole from before its first
// keystroke for as long as it lives, whatever it holds later; while a value
// is typed, the part of it typed so far is masked too. Cross-origin frames
// and closed shadow roots are not reached. MaskSecrets replaces the values
// given before; with none (the default) captures cost nothing extra.
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
	var ok bool
	if err := p.call(ctx, &ok, "maskField", ref); err != nil {
		return fmt.Errorf("%s %s: mark the field for masking: %w", action, ref, err)
	}
	if !ok {
		return p.notFit(ctx, action, ref, ReasonDetached, "")
	}
	return nil
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
	err := p.call(ctx, &m, "secretBoxes", needles)
	return m, err
}

// takeBoxes asks the page where it paints one of needles now and where it
// painted one in the states it rendered since the last take (the page
// records them from the first take on). A document that is being replaced
// is asked again, in the new one.
func (p *Page) takeBoxes(ctx context.Context, needles []string) (maskBoxes, error) {
	if needles == nil {
		needles = []string{} // a JSON array, not null
	}
	for attempt := 0; ; attempt++ {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		var m maskBoxes
		err := p.call(cctx, &m, "maskTake", needles)
		cancel()
		if err == nil || attempt == 2 || !isContextDestroyed(err) {
			return m, err
		}
	}
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
