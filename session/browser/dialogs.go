package browser

import (
	"context"
	"sync"

	"github.com/go-rod/rod/lib/proto"
)

// Dialog is a JavaScript dialog a page opened (alert, confirm, prompt or
// beforeunload) and how it was answered.
type Dialog struct {
	Type     string // "alert", "confirm", "prompt" or "beforeunload"
	Message  string
	Accepted bool
}

// dialogs answers a page's JavaScript dialogs as they open. A dialog left
// open blocks the page's scripts (and so every call e2e makes into the
// page) until someone answers it; headless, nobody would. Each is accepted
// as a person clicking OK would: an alert is closed, a confirm answers
// true, a prompt returns its default text, and a beforeunload lets the page
// go. What was answered is kept for the step that caused it.
type dialogs struct {
	mu   sync.Mutex
	seen []Dialog
	stop context.CancelFunc
	done chan struct{}
}

func (p *Page) answerDialogs() {
	ctx, cancel := context.WithCancel(context.Background())
	d := &dialogs{stop: cancel, done: make(chan struct{})}
	rp := p.rod.Context(ctx)
	wait := rp.EachEvent(func(e *proto.PageJavascriptDialogOpening) {
		_ = proto.PageHandleJavaScriptDialog{Accept: true, PromptText: e.DefaultPrompt}.Call(rp)
		d.mu.Lock()
		d.seen = append(d.seen, Dialog{Type: string(e.Type), Message: e.Message, Accepted: true})
		d.mu.Unlock()
	}, func(e *proto.PageFrameNavigated) {
		// The same listener follows the main frame's address (see LastURL).
		if e.Frame != nil && e.Frame.ParentID == "" {
			p.nav.committed(e.Frame.ID, e.Frame.URL+e.Frame.URLFragment)
		}
	}, func(e *proto.PageNavigatedWithinDocument) {
		p.nav.within(e.FrameID, e.URL)
	})
	go func() { defer close(d.done); wait() }()
	p.dialogs = d
}

// Dialogs returns the dialogs answered since the last call, oldest first.
func (p *Page) Dialogs() []Dialog {
	d := p.dialogs
	d.mu.Lock()
	defer d.mu.Unlock()
	out := d.seen
	d.seen = nil
	return out
}

func (d *dialogs) close() {
	d.stop()
	<-d.done
}
