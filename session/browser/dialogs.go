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
	// Answered is set when the answer was one given with AnswerNextDialog,
	// not the default OK.
	Answered bool
	// Text is the text the answer gave, when it gave one (see DialogAnswer).
	Text    string
	HasText bool
}

// DialogAnswer is how the page's next dialog is answered: OK (Accept) or
// Cancel. Text, when HasText is set, is what an accepted prompt returns;
// without it an accepted prompt returns its default text, as when a person
// clicks OK without typing.
type DialogAnswer struct {
	Accept  bool
	Text    string
	HasText bool
}

// dialogs answers a page's JavaScript dialogs as they open. A dialog left
// open blocks the page's scripts (and so every call e2e makes into the
// page) until someone answers it; headless, nobody would. Each takes the
// oldest answer given with AnswerNextDialog that no dialog has taken yet;
// with none waiting it is accepted as a person clicking OK would: an alert
// is closed, a confirm answers true, a prompt returns its default text,
// and a beforeunload lets the page go. What was answered is kept for the
// step that caused it.
type dialogs struct {
	mu      sync.Mutex
	seen    []Dialog
	answers []DialogAnswer // given, not yet taken, oldest first
	stop    context.CancelFunc
	done    chan struct{}
}

func (p *Page) answerDialogs() {
	ctx, cancel := context.WithCancel(context.Background())
	d := &dialogs{stop: cancel, done: make(chan struct{})}
	rp := p.rod.Context(ctx)
	wait := rp.EachEvent(func(e *proto.PageJavascriptDialogOpening) {
		d.mu.Lock()
		a, answered := DialogAnswer{Accept: true}, false
		if len(d.answers) > 0 {
			a, answered = d.answers[0], true
			d.answers = d.answers[1:]
		}
		d.mu.Unlock()
		text := e.DefaultPrompt
		if a.HasText {
			text = a.Text
		}
		_ = proto.PageHandleJavaScriptDialog{Accept: a.Accept, PromptText: text}.Call(rp)
		d.mu.Lock()
		d.seen = append(d.seen, Dialog{Type: string(e.Type), Message: e.Message, Accepted: a.Accept,
			Answered: answered, Text: a.Text, HasText: a.HasText})
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

// AnswerNextDialog queues a: the next dialog the page opens that no
// earlier answer is waiting for is answered so, instead of with OK.
func (p *Page) AnswerNextDialog(a DialogAnswer) {
	d := p.dialogs
	d.mu.Lock()
	defer d.mu.Unlock()
	d.answers = append(d.answers, a)
}

// WaitingAnswers returns how many answers given with AnswerNextDialog no
// dialog has taken yet.
func (p *Page) WaitingAnswers() int {
	d := p.dialogs
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.answers)
}

func (d *dialogs) close() {
	d.stop()
	<-d.done
}
