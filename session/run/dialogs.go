package run

import (
	"context"
	"fmt"
	"strings"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
)

// A page's JavaScript dialogs are answered as they open (see
// browser.Page.Dialogs): OK, unless a dialog step (ACCEPT, DISMISS) gave
// the answer for the next one. Answers are taken in the order given, one a
// dialog; an answer no dialog took by the end of the test fails the test
// at the dialog step, since the test then does not do what it says.

// givenAnswer is an answer a dialog step gave, for the error when no
// dialog takes it.
type givenAnswer struct {
	where string // file:line:col of the step
	index int    // the step's result in the test's results; -1 when it has none of its own
	line  int
	words string // the step as the test file says it
}

// runDialog queues the step's answer for the page's next dialog.
func runDialog(_ *Runner, _ context.Context, tr *testRun, raw, st step.Step, sr *session.StepResult) error {
	tr.page.AnswerNextDialog(browser.DialogAnswer{Accept: st.Type == step.Accept, Text: st.Value, HasText: st.Value != ""})
	file := tr.test.ShownFile()
	if tr.flow != nil {
		file = testfile.ShownPath("", tr.flow.def.File)
	}
	where := fmt.Sprintf("%s:%d", file, tr.at.Line)
	if tr.at.Col > 0 {
		where += fmt.Sprintf(":%d", tr.at.Col)
	}
	index := -1
	if tr.at.Line == sr.Line {
		index = sr.Index
	}
	tr.answers = append(tr.answers, givenAnswer{where: where, index: index, line: sr.Line, words: testfile.Line(raw)})
	return nil
}

// answerWords says how dialog d was answered, its text redacted.
func (tr *testRun) answerWords(d browser.Dialog) string {
	switch {
	case !d.Accepted:
		return "answered Cancel"
	case d.HasText:
		return fmt.Sprintf("answered OK with %q", tr.redact(d.Text))
	}
	return "answered OK"
}

// takeDialogs moves the dialogs the page answered since the last look to
// tr.dialogs and returns them. A text given for a dialog that takes none
// (an alert, a confirm) is an error: the test meant a prompt.
func (tr *testRun) takeDialogs() (ds []browser.Dialog, err error) {
	ds = tr.page.Dialogs()
	for _, d := range ds {
		tr.dialogs = append(tr.dialogs, d)
		if d.Answered && d.HasText && d.Type != "prompt" && err == nil {
			err = fmt.Errorf("the page's %s %q took the dialog step's text, but only a prompt takes text; answer it with dialog: accept", d.Type, tr.redact(d.Message))
		}
	}
	return ds, err
}

// noteDialogs adds the dialogs answered since the last look to the step's
// note, and returns err, else the error takeDialogs found.
func (tr *testRun) noteDialogs(sr *session.StepResult, err error) error {
	ds, derr := tr.takeDialogs()
	for _, d := range ds {
		note := fmt.Sprintf("the page's %s %q was %s", d.Type, tr.redact(d.Message), tr.answerWords(d))
		sr.Note = strings.TrimPrefix(sr.Note+"; "+note, "; ")
	}
	if err == nil {
		err = derr
	}
	return err
}

// expectDialog checks the message of a dialog the page opened since the
// last expect dialog step (or the test's start), waiting for one to open
// within the step's time.
func (r *Runner) expectDialog(ctx context.Context, tr *testRun, st step.Step, sr *session.StepResult) error {
	since := "since the test started"
	if tr.dialogsChecked > 0 {
		since = "since the last expect dialog step"
	}
	var derr error
	err := r.poll(ctx, st, func() (string, bool, error) {
		derr = tr.noteDialogs(sr, derr)
		for i := tr.dialogsChecked; i < len(tr.dialogs); i++ {
			if matches(st, tr.dialogs[i].Message) {
				tr.dialogsChecked = i + 1
				return "", true, nil
			}
		}
		if len(tr.dialogs) == tr.dialogsChecked {
			return "", false, nil
		}
		return tr.dialogs[len(tr.dialogs)-1].Message, false, nil
	}, func(got string) error {
		if len(tr.dialogs) == tr.dialogsChecked {
			return fmt.Errorf("expected a dialog saying %s %q, but the page opened none %s", verbOf(st), st.Value, since)
		}
		return fmt.Errorf("expected the dialog's message %s %q, got %q", verb(st), st.Value, got)
	})
	if err != nil {
		return err
	}
	return derr
}

// verbOf is verb for "a dialog saying …": exactly, or containing.
func verbOf(st step.Step) string {
	if st.Match == step.MatchContains {
		return "something containing"
	}
	return "exactly"
}

// unusedAnswer fails a test that passed when an answer a dialog step gave
// is still waiting at its end: no dialog opened after the step. The error
// names the step at file:line:col.
func (r *Runner) unusedAnswer(tr *testRun, res *session.TestResult) {
	n := tr.page.WaitingAnswers()
	if n == 0 || n > len(tr.answers) || res.Status != "passed" {
		return
	}
	a := tr.answers[len(tr.answers)-n]
	why := fmt.Sprintf("%s: %s was never used: no dialog opened after it by the end of the test; put it just before the step that opens the dialog", a.where, a.words)
	res.Status, res.Error = "failed", why
	if a.index >= 0 && a.index < len(res.Steps) && res.Steps[a.index].Line == a.line {
		res.Steps[a.index].Status, res.Steps[a.index].Error = session.StatusFailed, why
	}
	fmt.Fprintf(r.o.Out, "  ✗ %s\n", why)
}
