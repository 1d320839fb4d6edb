package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Kinds of model failure. A *CallError matches exactly one of them with
// errors.Is; ErrConfig comes from New and ConfigFromEnv.
var (
	ErrRateLimited = errors.New("model rate-limited")
	ErrTimeout     = errors.New("model timed out")
	ErrServer      = errors.New("model server error")
	ErrBadResponse = errors.New("bad model response")
	ErrRejected    = errors.New("model rejected the request")
	ErrUnreachable = errors.New("model unreachable")
	ErrConfig      = errors.New("model misconfigured")
)

// CallError is how a model call ended when it did not succeed: the kind of
// failure (one of the Err* sentinels, matched with errors.Is), the attempts
// made and how long they took. Its message is the one sentence a user sees,
// e.g. "model rate-limited (429) after 3 attempts over 7.2s".
//
// It never holds message contents: Detail is the server's own error text or
// the validation problem, cut to a short length.
type CallError struct {
	Kind     error         // ErrRateLimited, ErrTimeout, ErrServer, ErrBadResponse, ErrRejected or ErrUnreachable
	Status   int           // the HTTP status of the last attempt, 0 when there was none
	Attempts int           // requests sent
	Elapsed  time.Duration // from the first request to giving up, waits included
	Timeout  time.Duration // the per-request timeout (for ErrTimeout)
	BaseURL  string        // the server asked (for ErrUnreachable)
	Detail   string        // the server's message or the validation problem
	Err      error         // the last underlying error, if any
}

// Error is the user-facing wording of every model failure; it is decided here
// and nowhere else.
func (e *CallError) Error() string {
	over := fmt.Sprintf("after %s over %s", attempts(e.Attempts), seconds(e.Elapsed))
	var s string
	switch e.Kind {
	case ErrRateLimited:
		s = fmt.Sprintf("model rate-limited (%d) %s", e.Status, over)
	case ErrTimeout:
		s = fmt.Sprintf("model timed out after %s (%s)", seconds(e.Timeout), attempts(e.Attempts))
	case ErrServer:
		s = fmt.Sprintf("model answered %d %s", e.Status, over)
	case ErrRejected:
		s = fmt.Sprintf("model rejected the request (%d)", e.Status)
	case ErrUnreachable:
		s = fmt.Sprintf("model unreachable at %s %s", e.BaseURL, over)
	case ErrBadResponse:
		if _, big := isTooLarge(e.Err); big {
			s = fmt.Sprintf("model sent an answer too large to read %s", over)
		} else if e.Status != 0 && e.Status < 300 && e.Err != nil {
			s = fmt.Sprintf("model sent a malformed response %s", over)
		} else {
			s = fmt.Sprintf("model answered badly (%s)", attempts(e.Attempts))
		}
	default:
		s = fmt.Sprintf("model call failed %s", over)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Is reports whether target is the error's kind.
func (e *CallError) Is(target error) bool { return target != nil && target == e.Kind }

// Unwrap returns the last underlying error.
func (e *CallError) Unwrap() error { return e.Err }

// Outcome is the word a ModelCall records for how a call ended: "ok",
// "rate-limited", "timeout", "server-error", "bad-response", "rejected",
// "unreachable", "canceled" or "error".
func Outcome(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, ErrRateLimited):
		return "rate-limited"
	case errors.Is(err, ErrTimeout):
		return "timeout"
	case errors.Is(err, ErrServer):
		return "server-error"
	case errors.Is(err, ErrBadResponse):
		return "bad-response"
	case errors.Is(err, ErrRejected):
		return "rejected"
	case errors.Is(err, ErrUnreachable):
		return "unreachable"
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "canceled"
	}
	return "error"
}

func attempts(n int) string {
	if n == 1 {
		return "1 attempt"
	}
	return fmt.Sprintf("%d attempts", n)
}

func seconds(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", int64(d/time.Second))
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}

// short cuts a server message to one line of at most 200 characters.
func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	return s
}

// MalformedError is how an act ends when its budget ran out and every
// answer the model gave was malformed (see Actor.Act): it says so, with
// what was wrong with the first answer and the last, instead of naming the
// budget alone. It matches ErrBudget (through Budget) and ErrBadResponse.
type MalformedError struct {
	Answers     int    // the model's answers, all malformed
	First, Last string // what was wrong with the first and the last
	Budget      error  // the budget that ran out, matching ErrBudget
}

func (e *MalformedError) Error() string {
	s := fmt.Sprintf("the model's %d answers were malformed: %s", e.Answers, short(e.First))
	if e.Answers == 1 {
		s = "the model's only answer was malformed: " + short(e.First)
	}
	if e.Answers > 1 && e.Last != e.First {
		s += "; the last: " + short(e.Last)
	}
	return s
}

// Unwrap returns the budget error and ErrBadResponse.
func (e *MalformedError) Unwrap() []error { return []error{e.Budget, ErrBadResponse} }
