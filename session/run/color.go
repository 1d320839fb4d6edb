package run

import "github.com/e2e-dev/e2e/session"

// Palette colours the run's terminal output with ANSI codes: green for
// what passed, red for what failed, yellow for what passed only with help
// (re-located, re-identified, healed, flaky) and dim for what was skipped. The zero
// Palette writes plain text, as logs and pipes want it.
type Palette struct{ On bool }

func (p Palette) paint(code, s string) string {
	if !p.On || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// Pass, Fail, Warn and Dim colour s.
func (p Palette) Pass(s string) string { return p.paint("32", s) }
func (p Palette) Fail(s string) string { return p.paint("31", s) }
func (p Palette) Warn(s string) string { return p.paint("33", s) }
func (p Palette) Dim(s string) string  { return p.paint("2", s) }

// Status colours s by a test's or a step's status.
func (p Palette) Status(status, s string) string {
	switch status {
	case string(session.StatusPassed), string(session.StatusHit), string(session.StatusLocated):
		return p.Pass(s)
	case string(session.StatusRelocated), string(session.StatusReidentified):
		return p.Warn(s)
	case string(session.StatusSkipped):
		return p.Dim(s)
	case string(session.TestNotRun):
		return p.Warn(s)
	}
	return p.Fail(s)
}

// Count colours "n what" red (or yellow when warn) when n is not zero.
func (p Palette) Count(n int, s string, warn bool) string {
	switch {
	case n == 0:
		return s
	case warn:
		return p.Warn(s)
	}
	return p.Fail(s)
}
