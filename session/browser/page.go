package browser

import (
	"compress/gzip"
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"

	"github.com/e2e-dev/e2e/session/ax"
)

//go:embed page.js
var pageJS string

// DefaultCallTimeout bounds a browser call whose context has no deadline.
const DefaultCallTimeout = 30 * time.Second

// Page is one tab in its own browser context. Every method takes a context;
// a call whose context has no deadline gets DefaultCallTimeout.
type Page struct {
	rod       *rod.Page
	browser   *Browser
	incognito *rod.Browser

	snapMu sync.Mutex // one snapshot at a time: each may build on the last
	last   lastSnapshot

	dialogs *dialogs

	mask maskState // what captures hide (see MaskSecrets)

	nav navState // the main frame's address as last seen (see LastURL)

	stateMu     sync.Mutex
	stateScript proto.PageScriptIdentifier // puts a loaded state's storage in place (state.go); "" when none
}

// navState is the main frame's address as the browser last told it: from
// its navigation events, and from every page-script call, which answers
// with location.href beside its result.
type navState struct {
	mu    sync.Mutex
	url   string
	frame proto.PageFrameID
}

// committed notes a document the main frame committed to.
func (n *navState) committed(frame proto.PageFrameID, u string) {
	n.mu.Lock()
	n.url, n.frame = u, frame
	n.mu.Unlock()
}

// within notes a same-document navigation (history.pushState, a fragment)
// of frame, when it is the main frame.
func (n *navState) within(frame proto.PageFrameID, u string) {
	n.mu.Lock()
	if frame == n.frame {
		n.url = u
	}
	n.mu.Unlock()
}

// saw notes the address a call into the page read.
func (n *navState) saw(u string) {
	if u == "" {
		return
	}
	n.mu.Lock()
	n.url = u
	n.mu.Unlock()
}

// LastURL is the page's address as last seen, without asking the browser:
// the document the main frame last committed to (a navigation, a redirect,
// a link, a script), or the address the last call into the page or
// snapshot read, whichever came last; "" before the first. A navigation the
// browser is telling of at this moment may not be in it yet: a caller that
// must know (before typing a secret) asks with URL.
func (p *Page) LastURL() string {
	p.nav.mu.Lock()
	defer p.nav.mu.Unlock()
	return p.nav.url
}

func (p *Page) init(ctx context.Context) error {
	rp := p.rod.Context(ctx)
	if _, err := rp.EvalOnNewDocument(pageJS); err != nil {
		return fmt.Errorf("install page script: %w", err)
	}
	err := proto.EmulationSetDeviceMetricsOverride{
		Width: p.browser.opts.Width, Height: p.browser.opts.Height, DeviceScaleFactor: 1,
	}.Call(rp)
	if err != nil {
		return fmt.Errorf("set viewport: %w", err)
	}
	return nil
}

// with returns the rod page bound to ctx, adding the default deadline when
// ctx has none.
func (p *Page) with(ctx context.Context) (*rod.Page, context.CancelFunc) {
	if _, ok := ctx.Deadline(); !ok {
		ctx, cancel := context.WithTimeout(ctx, DefaultCallTimeout)
		return p.rod.Context(ctx), cancel
	}
	return p.rod.Context(ctx), func() {}
}

// call runs window.__e2e[method](args...) in the page's main frame, awaiting
// promises, and decodes the JSON result into out (when out is not nil). It
// installs the page script first when the document predates it.
func (p *Page) call(ctx context.Context, out any, method string, args ...any) error {
	rp, cancel := p.with(ctx)
	defer cancel()
	if args == nil {
		args = []any{} // a JSON array, not null
	}
	// The answer is location.href (read before the page's code runs), a
	// line break (which no href holds) and the result as JSON: the address
	// comes with every call, for LastURL.
	const js = `(m, a) => { const h = location.href; if (!window.__e2e) return '__e2e_missing__'; const r = window.__e2e[m](...a); return Promise.resolve(r).then(v => h + '\n' + JSON.stringify(v === undefined ? null : v)); }`
	for attempt := 0; ; attempt++ {
		res, err := rp.Evaluate(rod.Eval(js, method, args).ByPromise())
		if err != nil {
			return classify(ctx, err)
		}
		s := res.Value.Str()
		if s == "__e2e_missing__" {
			if attempt > 0 {
				return fmt.Errorf("page script did not install")
			}
			if _, err := rp.Evaluate(rod.Eval("() => {" + pageJS + "}")); err != nil {
				return fmt.Errorf("install page script: %w", classify(ctx, err))
			}
			continue
		}
		href, s, _ := strings.Cut(s, "\n")
		p.nav.saw(href)
		if out == nil {
			return nil
		}
		if err := json.Unmarshal([]byte(s), out); err != nil {
			return fmt.Errorf("decode %s result: %w", method, err)
		}
		return nil
	}
}

// classify turns rod and CDP failures into the package's errors, in plain
// words: no raw CDP error ({-32000 …}) leaves the package.
func classify(ctx context.Context, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%w: %v", ErrTimeout, err)
	case errors.Is(err, context.Canceled):
		return err
	case errors.Is(err, cdp.ErrSessionNotFound) || isCrash(err):
		return &callError{msg: ErrPageClosed.Error() + ": " + plainCDP(err), errs: []error{ErrPageClosed, err}}
	case isNavigated(err):
		return &callError{msg: ErrNavigated.Error(), errs: []error{ErrNavigated, err}}
	}
	if _, ok := errors.AsType[*cdp.Error](err); ok {
		return &callError{msg: "the browser refused the call: " + plainCDP(err), errs: []error{err}}
	}
	return err
}

// isNavigated says whether err is CDP's answer to a call whose document
// went away under it: the page navigated (or closed) before it answered.
func isNavigated(err error) bool {
	ce, ok := errors.AsType[*cdp.Error](err)
	if !ok {
		return false
	}
	m := ce.Message
	return strings.Contains(m, "Inspected target navigated or closed") || strings.Contains(m, "Execution context was destroyed") ||
		strings.Contains(m, "Cannot find context with specified id")
}

// plainCDP is the message of the CDP error in err without its code and
// braces, cut short; err's own text when it holds none.
func plainCDP(err error) string {
	ce, ok := errors.AsType[*cdp.Error](err)
	if !ok {
		return err.Error()
	}
	s := strings.TrimSpace(ce.Message)
	if d := strings.TrimSpace(ce.Data); d != "" {
		s += " (" + d + ")"
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func isCrash(err error) bool {
	var ce *cdp.Error
	if errors.As(err, &ce) {
		return strings.Contains(ce.Message, "Target closed") || strings.Contains(ce.Message, "crashed") ||
			strings.Contains(ce.Message, "No target with given id")
	}
	s := err.Error()
	return strings.Contains(s, "Target closed") || strings.Contains(s, "use of closed network connection") ||
		strings.Contains(s, "websocket: close") || s == "EOF"
}

// Response describes the document a navigation landed on.
type Response struct {
	URL         string
	Status      int
	ContentType string
}

// Navigate loads url and waits for its DOM to be ready (not for it to settle:
// call Settle for that). It returns ErrNavigation for network failures, with
// Chrome's reason (connection refused, name not resolved, …).
func (p *Page) Navigate(ctx context.Context, url string) (*Response, error) {
	rp, cancel := p.with(ctx)
	defer cancel()
	wait := rp.WaitNavigation(proto.PageLifecycleEventNameDOMContentLoaded)
	res, err := proto.PageNavigate{URL: url}.Call(rp)
	if err != nil {
		return nil, fmt.Errorf("navigate to %s: %w", url, classify(ctx, err))
	}
	if res.ErrorText != "" {
		return nil, &NavigationError{URL: url, Reason: res.ErrorText}
	}
	if res.LoaderID != "" { // a same-document navigation has no new load
		wait()
	}
	if err := ctxErr(rp.GetContext()); err != nil {
		return nil, fmt.Errorf("navigate to %s: %w", url, classify(ctx, err))
	}
	var info struct {
		URL         string `json:"url"`
		Status      int    `json:"status"`
		ContentType string `json:"contentType"`
	}
	const js = `() => { const n = performance.getEntriesByType('navigation')[0]; return {url: location.href, status: n ? n.responseStatus : 0, contentType: document.contentType}; }`
	r, err := rp.Evaluate(rod.Eval(js))
	if err != nil {
		return nil, fmt.Errorf("navigate to %s: %w", url, classify(ctx, err))
	}
	if err := r.Value.Unmarshal(&info); err != nil {
		return nil, fmt.Errorf("navigate to %s: %w", url, err)
	}
	p.nav.saw(info.URL)
	return &Response{URL: info.URL, Status: info.Status, ContentType: info.ContentType}, nil
}

func ctxErr(ctx context.Context) error { return ctx.Err() }

// SnapshotOptions shape a snapshot.
type SnapshotOptions struct {
	// MaxNodes caps the nodes returned; the rest are counted as "… N more".
	// Zero means no cap.
	MaxNodes int
	// Scope is a ref whose subtree alone is snapshotted.
	Scope string
	// Boxes adds a bounding box to every node, not only interactable ones.
	Boxes bool
	// TextBoxes adds a bounding box to every run of text (its owner
	// element's), for descriptions that place things against text ("the
	// checkbox next to oat milk"). Measuring text forces layout, which a
	// page may have spared itself (content-visibility), so it is asked for
	// only when needed.
	TextBoxes bool
	// MaxText caps each name, text run, value, placeholder, URL and hint at this
	// many characters (UTF-16 code units); a longer one is cut, on a word
	// boundary when one is near, and ends in "… N more characters" (the
	// node is marked ax.Node.Cut). Zero means DefaultMaxText; negative, no
	// cap.
	MaxText int
	// MaxTotalText is the snapshot's text budget: once the names, text,
	// values, placeholders, URLs and hints written, in document order, reach this
	// many characters, the rest are cut shorter or to nothing (each with its
	// marker), and ax.Snapshot.TextMore says how much was left out. Zero
	// means DefaultMaxTotalText; negative, no budget.
	MaxTotalText int

	raw  bool // transfer uncompressed (for benchmarks)
	full bool // send the whole snapshot, not a change to the last one (for benchmarks)
}

// Default text caps of a snapshot (see SnapshotOptions). Element
// descriptions outside snapshots (cached elements, errors) cut names at
// DefaultMaxText too.
const (
	DefaultMaxText      = 4096
	DefaultMaxTotalText = 1 << 20
)

// textCap resolves a text cap option: zero is the default, negative none
// (0 on the wire).
func textCap(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// Snapshot builds the accessibility snapshot of the page as it is now.
// Refs stay the same across snapshots while an element keeps its role and
// name. A Scope ref that is gone returns an error saying so.
func (p *Page) Snapshot(ctx context.Context, opts SnapshotOptions) (*ax.Snapshot, error) {
	p.snapMu.Lock()
	defer p.snapMu.Unlock()
	const chunk = 96 << 10
	var first struct {
		Len  int    `json:"len"`
		GZ   bool   `json:"gz"`
		Head string `json:"head"`
	}
	maxText, maxTotal := textCap(opts.MaxText, DefaultMaxText), textCap(opts.MaxTotalText, DefaultMaxTotalText)
	arg := map[string]any{"maxNodes": opts.MaxNodes, "scope": opts.Scope, "boxes": opts.Boxes, "textBoxes": opts.TextBoxes, "raw": opts.raw,
		"maxText": maxText, "maxTotalText": maxTotal}
	key := fmt.Sprint(opts.MaxNodes, "|", opts.Scope, "|", opts.Boxes, "|", opts.TextBoxes, "|", maxText, "|", maxTotal)
	var since any
	if p.last.lines != nil && p.last.key == key && !opts.full {
		since = map[string]any{"doc": p.last.doc, "gen": p.last.gen}
	}
	if err := p.call(ctx, &first, "snapshotEncoded", arg, chunk, since); err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	// Positions count UTF-16 code units, as JavaScript strings do.
	var b strings.Builder
	b.Grow(first.Len)
	b.WriteString(first.Head)
	for read := utf16Len(first.Head); read < first.Len; {
		var part string
		if err := p.call(ctx, &part, "readOut", read, chunk); err != nil {
			return nil, fmt.Errorf("snapshot: %w", err)
		}
		if part == "" {
			return nil, fmt.Errorf("snapshot: the page lost the snapshot while it was read (it navigated?)")
		}
		b.WriteString(part)
		read += utf16Len(part)
	}
	enc := b.String()
	if first.GZ {
		raw, err := gunzipBase64(enc)
		if err != nil {
			return nil, fmt.Errorf("snapshot: %w", err)
		}
		enc = raw
	}
	header, body, _ := strings.Cut(enc, "\n")
	var h snapshotHeader
	if err := json.Unmarshal([]byte(header), &h); err != nil {
		return nil, fmt.Errorf("snapshot: decode header: %w", err)
	}
	if h.Error != "" {
		return nil, fmt.Errorf("snapshot: %s", h.Error)
	}
	var lines []string
	if body != "" {
		lines = strings.Split(body, "\n")
	}
	if h.Base != 0 {
		// A change to the snapshot we hold: keep its head and tail.
		old := p.last.lines
		if h.Base != p.last.gen || h.Doc != p.last.doc || h.KeepHead+h.KeepTail > len(old) {
			p.last = lastSnapshot{}
			return nil, fmt.Errorf("snapshot: the page answered with a change to a snapshot we do not hold")
		}
		merged := make([]string, 0, h.KeepHead+len(lines)+h.KeepTail)
		merged = append(merged, old[:h.KeepHead]...)
		merged = append(merged, lines...)
		merged = append(merged, old[len(old)-h.KeepTail:]...)
		lines = merged
	}
	p.last = lastSnapshot{doc: h.Doc, gen: h.Gen, key: key, lines: lines}
	s, err := decodeLines(h, lines)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	return s, nil
}

// lastSnapshot is the last snapshot received from the page, as lines, so
// that the next one can come as a change to it.
type lastSnapshot struct {
	doc   string
	gen   int
	key   string
	lines []string
}

type snapshotHeader struct {
	URL      string `json:"url"`
	Title    string `json:"title"`
	Total    int    `json:"total"`
	Shown    int    `json:"shown"`
	More     int    `json:"more"`
	Error    string `json:"error"`
	Doc      string `json:"doc"`
	Gen      int    `json:"gen"`
	Base     int    `json:"base"`
	KeepHead int    `json:"keepHead"`
	KeepTail int    `json:"keepTail"`
	TextMore int    `json:"textMore"`
	TextCap  int    `json:"textCap"`
}

// decodeLines reads the line format of page.js (see snapshotText there).
func decodeLines(h snapshotHeader, lines []string) (*ax.Snapshot, error) {
	s := &ax.Snapshot{URL: h.URL, Title: h.Title, Total: h.Total, Shown: h.Shown, TextMore: h.TextMore, TextCap: h.TextCap}
	var stack []*ax.Node // stack[d] is the last node seen at depth d
	var f [8]string
	for _, line := range lines {
		if line == "" {
			continue
		}
		// up to eight tab-separated fields; missing trailing ones are empty
		rest := line
		n := 0
		for ; n < 7; n++ {
			j := strings.IndexByte(rest, '\t')
			if j < 0 {
				break
			}
			f[n], rest = rest[:j], rest[j+1:]
		}
		f[n] = rest
		for i := n + 1; i < 8; i++ {
			f[i] = ""
		}
		if n < 1 {
			return nil, fmt.Errorf("decode: malformed line %q", line)
		}
		d, err := strconv.Atoi(f[0])
		if err != nil || d > len(stack) {
			return nil, fmt.Errorf("decode: bad depth in %q", line)
		}
		node := &ax.Node{Role: f[1], Ref: f[3]}
		if node.Role == "text" {
			node.Text = f[2]
		} else {
			node.Name = f[2]
		}
		if f[4] != "" {
			decodeStates(node, f[4])
		}
		if f[5] != "" {
			node.Box = parseBox(f[5])
		}
		node.States.Color = f[6]
		if f[7] != "" {
			node.More, _ = strconv.Atoi(f[7])
		}
		stack = stack[:d]
		if d == 0 {
			s.Root = append(s.Root, node)
		} else {
			parent := stack[d-1]
			parent.Children = append(parent.Children, node)
		}
		stack = append(stack, node)
	}
	return s, nil
}

func decodeStates(n *ax.Node, enc string) {
	st := &n.States
	for kv := range strings.SplitSeq(enc, "\x1f") {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "ck":
			st.Checked = v
		case "ds":
			st.Disabled = true
		case "ex":
			st.Expanded = v
		case "sl":
			st.Selected = true
		case "pr":
			st.Pressed = v
		case "lv":
			st.Level, _ = strconv.Atoi(v)
		case "va":
			st.Value = v
		case "ph":
			st.Placeholder = v
		case "ur":
			st.URL = v
		case "hi":
			st.Hint = v
		case "fo":
			st.Focused = true
		case "in":
			st.Interactive = true
		case "cu":
			n.Cut = true
		case "hv":
			st.HoverOnly = true
		case "fi":
			st.File = true
		case "cl":
			st.Clickable = true
		case "lk":
			st.Looks = v
		}
	}
}

// SettleOptions say how long a page must be quiet and how long to wait at most.
type SettleOptions struct {
	Quiet time.Duration // no DOM mutation and no fetch/XHR in flight for this long; default 300ms
	Max   time.Duration // give up after this long; default 10s
}

func (o SettleOptions) withDefaults() SettleOptions {
	if o.Quiet <= 0 {
		o.Quiet = 300 * time.Millisecond
	}
	if o.Max <= 0 {
		o.Max = 10 * time.Second
	}
	return o
}

// Settle waits until the page has had no DOM mutation and no fetch or XHR in
// flight for opts.Quiet, measured from the last change (so a page that has
// been idle a while settles at once). It never sleeps a fixed time. After
// opts.Max it returns a *NotSettledError saying what kept the page busy. A
// navigation during the wait restarts it in the new document.
func (p *Page) Settle(ctx context.Context, opts SettleOptions) (time.Duration, error) {
	opts = opts.withDefaults()
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, opts.Max+5*time.Second)
	defer cancel()
	for {
		left := opts.Max - time.Since(start)
		if left < time.Millisecond {
			left = time.Millisecond
		}
		var res struct {
			Settled    bool     `json:"settled"`
			Mutations  int      `json:"mutations"`
			Inflight   int      `json:"inflight"`
			Timers     int      `json:"timers"`
			Navigating bool     `json:"navigating"`
			Pending    []string `json:"pending"`
			ReadyState string   `json:"readyState"`
		}
		err := p.call(ctx, &res, "settle", opts.Quiet.Milliseconds(), left.Milliseconds())
		if err != nil {
			if isContextDestroyed(err) && time.Since(start) < opts.Max {
				continue
			}
			return time.Since(start), fmt.Errorf("settle: %w", err)
		}
		if res.Settled {
			return time.Since(start), nil
		}
		return time.Since(start), &NotSettledError{Waited: opts.Max, Mutations: res.Mutations, Inflight: res.Inflight, Timers: res.Timers, Navigating: res.Navigating, Pending: res.Pending, ReadyState: res.ReadyState}
	}
}

func isContextDestroyed(err error) bool {
	if errors.Is(err, ErrNavigated) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "Execution context was destroyed") || strings.Contains(s, "Cannot find context") ||
		strings.Contains(s, "Inspected target navigated or closed")
}

// MainFrameURL is the main frame's address as the browser holds it (its
// frame tree), not as the page's scripts could tell it: what a caller must
// know before a secret or the page's content leaves for where it is.
func (p *Page) MainFrameURL(ctx context.Context) (string, error) {
	rp, cancel := p.with(ctx)
	defer cancel()
	t, err := proto.PageGetFrameTree{}.Call(rp)
	if err != nil {
		return "", fmt.Errorf("read the page's address: %w", classify(ctx, err))
	}
	if t.FrameTree == nil || t.FrameTree.Frame == nil {
		return "", errors.New("read the page's address: no main frame")
	}
	u := t.FrameTree.Frame.URL + t.FrameTree.Frame.URLFragment
	p.nav.committed(t.FrameTree.Frame.ID, u)
	return u, nil
}

// URL is the page's current address.
func (p *Page) URL(ctx context.Context) (string, error) {
	var u string
	err := p.evalJSON(ctx, &u, `() => location.href`)
	return u, err
}

// Title is the document title.
func (p *Page) Title(ctx context.Context) (string, error) {
	var t string
	err := p.evalJSON(ctx, &t, `() => document.title`)
	return t, err
}

// Eval runs a JavaScript function expression in the page with JSON arguments
// and decodes its (awaited) JSON result into out.
func (p *Page) Eval(ctx context.Context, out any, js string, args ...any) error {
	return p.evalJSON(ctx, out, js, args...)
}

func (p *Page) evalJSON(ctx context.Context, out any, js string, args ...any) error {
	rp, cancel := p.with(ctx)
	defer cancel()
	res, err := rp.Evaluate(rod.Eval(js, args...).ByPromise())
	if err != nil {
		return classify(ctx, err)
	}
	if out == nil {
		return nil
	}
	return res.Value.Unmarshal(out)
}

// Screenshot captures the viewport as PNG. When values are masked (see
// MaskSecrets) the places that show them are painted over with opaque
// boxes, found in the page just before and just after the capture; the
// page's DOM is not touched. A page that cannot say where it shows them
// gives an error, never an unmasked screenshot.
func (p *Page) Screenshot(ctx context.Context) ([]byte, error) {
	needles := p.maskNeedles()
	var before, after maskBoxes
	if needles != nil {
		var err error
		if before, err = p.secretBoxes(ctx, needles); err != nil {
			return nil, fmt.Errorf("screenshot: find the secrets to mask: %w", err)
		}
	}
	rp, cancel := p.with(ctx)
	defer cancel()
	b, err := rp.Screenshot(false, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
	if err != nil {
		return nil, fmt.Errorf("screenshot: %w", classify(ctx, err))
	}
	if needles == nil {
		return b, nil
	}
	if after, err = p.secretBoxes(ctx, needles); err != nil {
		return nil, fmt.Errorf("screenshot: find the secrets to mask: %w", err)
	}
	return maskPNG(b, float64(p.browser.opts.Width), before, after)
}

// Close closes the page by disposing of its browser context, which closes
// the context's pages without running their beforeunload handlers: a page
// whose renderer hangs (an endless script) or crashed closes at once and its
// renderer process ends, where asking the page itself to close would wait
// on that renderer until the timeout.
func (p *Page) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	defer p.dialogs.close()
	if p.incognito != nil && p.incognito.BrowserContextID != "" {
		return disposeContext(p.browser.rod.Context(ctx), p.incognito)
	}
	return p.rod.Context(ctx).Close()
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

func gunzipBase64(s string) (string, error) {
	zr, err := gzip.NewReader(base64.NewDecoder(base64.StdEncoding, strings.NewReader(s)))
	if err != nil {
		return "", fmt.Errorf("decompress: %w", err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return "", fmt.Errorf("decompress: %w", err)
	}
	return string(b), nil
}

// parseBox reads "x,y,w,h"; nil when malformed.
func parseBox(s string) *ax.Box {
	var v [4]float64
	for i := range v {
		part := s
		if j := strings.IndexByte(s, ','); j >= 0 && i < 3 {
			part, s = s[:j], s[j+1:]
		} else if i < 3 {
			return nil
		}
		f, err := strconv.ParseFloat(part, 64)
		if err != nil {
			return nil
		}
		v[i] = f
	}
	return &ax.Box{X: v[0], Y: v[1], W: v[2], H: v[3]}
}
