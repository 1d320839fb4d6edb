package tui

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

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
	popts := []tea.ProgramOption{tea.WithAltScreen()}
	for _, f := range opts {
		f(&popts)
	}
	a := &App{gate: o.Gate}
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

// Run shows the studio until it quits and restores the terminal, after a
// panic too (in the UI, or in a function started with Go).
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
