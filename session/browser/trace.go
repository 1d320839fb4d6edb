package browser

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

//go:embed trace.js
var traceJS string

// DOMSnapshot is the page's document serialised for a trace (see
// Page.DOMSnapshot): HTML that renders on its own, with no script.
type DOMSnapshot struct {
	HTML  string `json:"html"`
	URL   string `json:"url"`
	Title string `json:"title"`
	// ScrollX and ScrollY are the document's scroll position, Width and
	// Height the viewport's size, in CSS pixels.
	ScrollX float64 `json:"scrollX"`
	ScrollY float64 `json:"scrollY"`
	Width   float64 `json:"width"`
	Height  float64 `json:"height"`
	// Truncated says the document was longer than DOMOptions.MaxBytes and
	// its HTML stops there.
	Truncated bool `json:"truncated,omitempty"`
}

// DOMOptions bound a DOM snapshot.
type DOMOptions struct {
	// MaxBytes bounds the HTML; zero means 1 MiB.
	MaxBytes int
	// CSSMax is the largest same-origin stylesheet inlined (a larger one,
	// or one of another origin, stays a link); zero means 256 KiB.
	CSSMax int
	// CSSTotal bounds the inlined stylesheets together; zero means 512 KiB.
	CSSTotal int
}

// DOMSnapshot serialises the page's document as HTML for a trace: styles
// kept (same-origin stylesheets inlined within the bounds of o, others
// linked), scripts and event handlers removed, resource URLs absolute,
// each field's current value and state as attributes, open shadow roots as
// declarative shadow DOM, frames empty. The element behind ref ("" for
// none) carries a data-e2e-target attribute. Password fields and the
// fields a masked value was typed into (MaskSecrets) show dots, never their
// value; other text is as the page shows it, for the caller to redact. It
// runs in an isolated world: the page's scripts neither see nor change it.
func (p *Page) DOMSnapshot(ctx context.Context, ref string, o DOMOptions) (*DOMSnapshot, error) {
	if o.MaxBytes <= 0 {
		o.MaxBytes = 1 << 20
	}
	if o.CSSMax <= 0 {
		o.CSSMax = 256 << 10
	}
	if o.CSSTotal <= 0 {
		o.CSSTotal = 512 << 10
	}
	rp, cancel := p.with(ctx)
	defer cancel()
	var out DOMSnapshot
	for attempt := 0; ; attempt++ {
		err := p.domSnapshotOnce(rp, ref, o, &out)
		if err == nil || attempt == 2 || !isContextDestroyed(err) {
			if err != nil {
				return nil, fmt.Errorf("dom snapshot: %w", classify(ctx, err))
			}
			return &out, nil
		}
	}
}

func (p *Page) domSnapshotOnce(rp *rod.Page, ref string, o DOMOptions, out *DOMSnapshot) error {
	iso, err := p.maskContext(rp, true)
	if err != nil {
		return err
	}
	if res, err := (proto.RuntimeEvaluate{Expression: traceJS, ContextID: iso}).Call(rp); err != nil {
		return err
	} else if res.ExceptionDetails != nil {
		return fmt.Errorf("install the trace script: %s", exceptionText(res.ExceptionDetails))
	}
	target := &proto.RuntimeCallArgument{Value: gson.New(nil)}
	if ref != "" {
		if id, release := p.isoElement(rp, iso, ref); id != "" {
			defer release()
			target = &proto.RuntimeCallArgument{ObjectID: id}
		}
	}
	opts, _ := json.Marshal(map[string]int{"maxBytes": o.MaxBytes, "cssMax": o.CSSMax, "cssTotal": o.CSSTotal})
	res, err := proto.RuntimeCallFunctionOn{ExecutionContextID: iso, ReturnByValue: true,
		FunctionDeclaration: `function (t, o) { return JSON.stringify(window.__e2eTrace.serialize(t, JSON.parse(o))); }`,
		Arguments:           []*proto.RuntimeCallArgument{target, {Value: gson.New(string(opts))}}}.Call(rp)
	if err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		return fmt.Errorf("serialise: %s", exceptionText(res.ExceptionDetails))
	}
	return json.Unmarshal([]byte(res.Result.Value.Str()), out)
}

// isoElement is the element behind ref as an object of the isolated world
// iso, and how to release it; "" when ref is gone.
func (p *Page) isoElement(rp *rod.Page, iso proto.RuntimeExecutionContextID, ref string) (proto.RuntimeRemoteObjectID, func()) {
	el, err := rp.Evaluate(rod.Eval(`(ref) => (window.__e2e ? window.__e2e.resolve(ref) : null)`, ref).ByObject())
	if err != nil || el.ObjectID == "" {
		return "", nil
	}
	defer func() { _ = proto.RuntimeReleaseObject{ObjectID: el.ObjectID}.Call(rp) }()
	node, err := proto.DOMDescribeNode{ObjectID: el.ObjectID}.Call(rp)
	if err != nil {
		return "", nil
	}
	there, err := proto.DOMResolveNode{BackendNodeID: node.Node.BackendNodeID, ExecutionContextID: iso}.Call(rp)
	if err != nil || there.Object == nil {
		return "", nil
	}
	return there.Object.ObjectID, func() { _ = proto.RuntimeReleaseObject{ObjectID: there.Object.ObjectID}.Call(rp) }
}

// Request is one network request a Capture saw: no headers, no bodies.
type Request struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	Type   string `json:"type,omitempty"` // Document, XHR, Fetch, Script, Image, …
	// Status is the response's HTTP status; 0 when none came (yet).
	Status int `json:"status,omitempty"`
	// Failed is why the request failed ("net::ERR_…"), or "".
	Failed string    `json:"failed,omitempty"`
	Start  time.Time `json:"start"`
	// MS is how long it took to finish or fail; -1 while it is pending.
	MS int64 `json:"ms"`
}

// ConsoleMessage is a console call or an uncaught error of the page.
type ConsoleMessage struct {
	Level string    `json:"level"` // log, info, warning, error, debug, …; "pageerror" for an uncaught exception
	Text  string    `json:"text"`
	At    time.Time `json:"at"`
}

// CaptureOptions bound what a Capture keeps between two Takes.
type CaptureOptions struct {
	// MaxRequests and MaxMessages bound each Take; zero means 500 and 200.
	// The rest are counted as dropped.
	MaxRequests, MaxMessages int
	// MaxText bounds a URL or a message; zero means 2,000 characters.
	MaxText int
}

// Capture records the page's network requests (method, URL, type, status,
// timing) and console messages and uncaught errors while it runs, for a
// trace (Page.StartCapture).
type Capture struct {
	o      CaptureOptions
	cancel context.CancelFunc
	done   chan struct{}

	mu       sync.Mutex
	reqs     []*Request
	byID     map[proto.NetworkRequestID]*Request
	msgs     []ConsoleMessage
	dropReqs int
	dropMsgs int
}

// StartCapture starts recording the page's requests and console messages
// until Stop; Take hands over what came since the last Take. Request and
// response bodies and headers are never read.
func (p *Page) StartCapture(ctx context.Context, o CaptureOptions) (*Capture, error) {
	if o.MaxRequests <= 0 {
		o.MaxRequests = 500
	}
	if o.MaxMessages <= 0 {
		o.MaxMessages = 200
	}
	if o.MaxText <= 0 {
		o.MaxText = 2000
	}
	lctx, cancel := context.WithCancel(context.Background())
	c := &Capture{o: o, cancel: cancel, done: make(chan struct{}), byID: map[proto.NetworkRequestID]*Request{}}
	wait := p.rod.Context(lctx).EachEvent(func(e *proto.NetworkRequestWillBeSent) {
		if e.Request == nil || strings.HasPrefix(e.Request.URL, "data:") {
			return
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if prev := c.byID[e.RequestID]; prev != nil && e.RedirectResponse != nil {
			prev.Status, prev.MS = e.RedirectResponse.Status, time.Since(prev.Start).Milliseconds()
		}
		if len(c.reqs) >= c.o.MaxRequests {
			c.dropReqs++
			return
		}
		r := &Request{Method: e.Request.Method, URL: clip(e.Request.URL, c.o.MaxText), Type: string(e.Type), Start: time.Now(), MS: -1}
		c.reqs = append(c.reqs, r)
		c.byID[e.RequestID] = r
	}, func(e *proto.NetworkResponseReceived) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if r := c.byID[e.RequestID]; r != nil && e.Response != nil {
			r.Status = e.Response.Status
		}
	}, func(e *proto.NetworkLoadingFinished) {
		c.finish(e.RequestID, "")
	}, func(e *proto.NetworkLoadingFailed) {
		c.finish(e.RequestID, e.ErrorText)
	}, func(e *proto.RuntimeConsoleAPICalled) {
		var parts []string
		for _, a := range e.Args {
			parts = append(parts, remoteText(a))
		}
		c.message(string(e.Type), strings.Join(parts, " "))
	}, func(e *proto.RuntimeExceptionThrown) {
		c.message("pageerror", exceptionText(e.ExceptionDetails))
	})
	go func() { defer close(c.done); wait() }()
	rp, pcancel := p.with(ctx)
	defer pcancel()
	if err := (proto.NetworkEnable{}).Call(rp); err != nil {
		c.Stop()
		return nil, fmt.Errorf("start capture: %w", classify(ctx, err))
	}
	return c, nil
}

func (c *Capture) finish(id proto.NetworkRequestID, failed string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r := c.byID[id]; r != nil {
		r.MS, r.Failed = time.Since(r.Start).Milliseconds(), failed
		delete(c.byID, id)
	}
}

func (c *Capture) message(level, text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.msgs) >= c.o.MaxMessages {
		c.dropMsgs++
		return
	}
	c.msgs = append(c.msgs, ConsoleMessage{Level: level, Text: clip(text, c.o.MaxText), At: time.Now()})
}

// Take returns the requests that started and the messages that came since
// the last Take (a request still pending has MS -1), and how many of each
// were over the bounds and dropped. The values are copies.
func (c *Capture) Take() (reqs []Request, msgs []ConsoleMessage, droppedReqs, droppedMsgs int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.reqs {
		reqs = append(reqs, *r)
	}
	msgs = c.msgs
	droppedReqs, droppedMsgs = c.dropReqs, c.dropMsgs
	c.reqs, c.msgs, c.dropReqs, c.dropMsgs = nil, nil, 0, 0
	return reqs, msgs, droppedReqs, droppedMsgs
}

// Stop ends the capture; it may be called more than once.
func (c *Capture) Stop() {
	c.cancel()
	<-c.done
}

// remoteText is a console argument as text: its value, else its
// description (an object's class, a function's source head).
func remoteText(a *proto.RuntimeRemoteObject) string {
	if a == nil {
		return ""
	}
	if a.Value.Nil() {
		if a.Description != "" {
			return a.Description
		}
		return string(a.Type)
	}
	if a.Type == proto.RuntimeRemoteObjectTypeString {
		return a.Value.Str()
	}
	return a.Value.JSON("", "")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && cut < len(s) && s[cut]&0xc0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
