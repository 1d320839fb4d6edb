package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/term"

	"github.com/e2e-dev/e2e/session"
)

// App is the studio running on a terminal.
type App struct {
	p    *tea.Program
	gate *Gate

	mu     sync.Mutex
	panics []string
}

// AppOption changes how the App runs (tests give it their own input and output).
type AppOption func(*[]tea.ProgramOption)

// WithIO runs on in and out instead of the terminal, without the alternate
// screen.
func WithIO(in io.Reader, out io.Writer) AppOption {
	return func(o *[]tea.ProgramOption) {
		*o = append(*o, tea.WithInput(in), tea.WithOutput(out))
	}
}

// NewApp returns the studio for o. It draws without colour when NO_COLOR
// is set or the terminal has none (lipgloss's colour profile follows both).
func NewApp(o Options, opts ...AppOption) *App {
	if o.Gate == nil {
		o.Gate = NewGate(false)
	}
	a := &App{gate: o.Gate}
	popts := []tea.ProgramOption{tea.WithAltScreen()}
	if term.IsTerminal(os.Stdin.Fd()) {
		popts = append(popts, tea.WithInput(&terminalInput{File: os.Stdin, gone: a.Quit}))
	}
	for _, f := range opts {
		f(&popts)
	}
	a.p = tea.NewProgram(New(o), popts...)
	o.Gate.bind(a.p.Send)
	return a
}

// Publish hands a session event to the studio; it is a session.Events.
// Events are never dropped: it blocks until the studio takes the event, and
// returns at once when the studio has quit.
func (a *App) Publish(e session.Event) { a.p.Send(EventMsg{Event: e}) }

// Send hands the studio a Notice or RunDone.
func (a *App) Send(msg any) { a.p.Send(msg) }

// Gate is the studio's gate for the session.
func (a *App) Gate() *Gate { return a.gate }

// Go runs fn off the UI goroutine. A panic in fn ends the studio, which
// restores the terminal, and Run returns it as an error with its stack.
func (a *App) Go(fn func()) {
	go func() {
		defer func() {
			if r := recover(); r != nil {
				a.mu.Lock()
				a.panics = append(a.panics, fmt.Sprintf("panic: %v\n%s", r, debug.Stack()))
				a.mu.Unlock()
				a.p.Quit()
			}
		}()
		fn()
	}()
}

// RunContext is Run until ctx ends too: the end of ctx (the command's, which
// SIGHUP ends when the terminal is closed) quits the studio as q does.
func (a *App) RunContext(ctx context.Context) error {
	stop := context.AfterFunc(ctx, a.Quit)
	defer stop()
	return a.Run()
}

// Run shows the studio until it quits and restores the terminal, after a
// panic too (in the UI, or in a function started with Go). When its
// terminal goes away (reading keys from it ends or fails: a closed tab, a
// killed tmux session) it quits as q does.
func (a *App) Run() error {
	_, err := a.p.Run()
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.panics) > 0 {
		return errors.New(a.panics[0])
	}
	if errors.Is(err, tea.ErrProgramPanic) {
		return fmt.Errorf("the studio crashed and restored the terminal: %w", err)
	}
	if errors.Is(err, tea.ErrProgramKilled) {
		return nil
	}
	return err
}

// Quit ends the studio.
func (a *App) Quit() { a.p.Quit() }

// terminalInput is the terminal the studio reads keys from, still a file
// for bubbletea (raw mode, polled reads). A terminal in raw mode never
// ends its input: a read that ends (EOF) or fails (EIO) means it was hung
// up, and gone is called once; bubbletea is told the input ended.
type terminalInput struct {
	*os.File
	once sync.Once
	gone func()
}

func (t *terminalInput) Read(p []byte) (int, error) {
	n, err := t.File.Read(p)
	if n == 0 && (errors.Is(err, io.EOF) || errors.Is(err, syscall.EIO)) {
		t.once.Do(func() { go t.gone() })
		return 0, io.EOF
	}
	return n, err
}
