package browser

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/e2e-dev/e2e/session/plural"
)

// Sentinel errors; match them with errors.Is.
var (
	// ErrNoBrowser: no browser binary was found or the one named is unusable.
	ErrNoBrowser = errors.New("no browser found")
	// ErrNoDisplay: a headed browser was asked for and there is no display
	// to show it on (neither DISPLAY nor WAYLAND_DISPLAY is set).
	ErrNoDisplay = errors.New("no display")
	// ErrTimeout: a browser call ran past its deadline.
	ErrTimeout = errors.New("timed out")
	// ErrPageClosed: the page, its renderer or the browser went away.
	ErrPageClosed = errors.New("page closed or crashed")
	// ErrNavigated: the page navigated away (or closed) while a call to it
	// was under way; what the call asked about is gone with its document.
	ErrNavigated = errors.New("the page navigated or closed before it answered")
)

// callError is a browser failure in plain words. It matches the package's
// sentinel and the underlying rod or CDP error with errors.Is and errors.As.
type callError struct {
	msg  string
	errs []error
}

func (e *callError) Error() string   { return e.msg }
func (e *callError) Unwrap() []error { return e.errs }

// NavigationError is a navigation the network refused.
type NavigationError struct {
	URL    string
	Reason string // Chrome's error text, e.g. net::ERR_CONNECTION_REFUSED
}

func (e *NavigationError) Error() string {
	human := map[string]string{
		"net::ERR_CONNECTION_REFUSED":   "connection refused",
		"net::ERR_NAME_NOT_RESOLVED":    "host name not resolved",
		"net::ERR_CONNECTION_TIMED_OUT": "connection timed out",
		"net::ERR_ADDRESS_UNREACHABLE":  "address unreachable",
		"net::ERR_EMPTY_RESPONSE":       "the server closed the connection without answering",
		"net::ERR_CONNECTION_RESET":     "connection reset",
		"net::ERR_INVALID_URL":          "invalid URL",
		"net::ERR_ABORTED":              "navigation aborted",
		"net::ERR_UNSAFE_PORT":          "the browser refuses this port",
	}[e.Reason]
	if human == "" {
		return fmt.Sprintf("navigate to %s: %s", e.URL, e.Reason)
	}
	return fmt.Sprintf("navigate to %s: %s (%s)", e.URL, human, e.Reason)
}

// NotSettledError says a page kept changing past the settle cap.
type NotSettledError struct {
	Waited     time.Duration
	Mutations  int // DOM mutations during the wait
	Inflight   int
	Timers     int  // short timers still pending
	Navigating bool // a navigation had started and not finished
	Pending    []string
	ReadyState string
}

func (e *NotSettledError) Error() string {
	var why []string
	if e.Inflight > 0 {
		why = append(why, fmt.Sprintf("%s still in flight (%s)", plural.Count(e.Inflight, "request"), strings.Join(e.Pending, ", ")))
	}
	if e.Navigating {
		why = append(why, "a navigation is still under way")
	}
	if e.Timers > 0 {
		why = append(why, fmt.Sprintf("%s %s being scheduled", plural.Count(e.Timers, "short timer"), plural.Word(e.Timers, "keeps", "keep")))
	}
	if e.ReadyState == "loading" {
		why = append(why, "the document is still loading")
	}
	if len(why) == 0 && e.Mutations > 0 {
		why = append(why, fmt.Sprintf("the DOM kept changing (%s)", plural.Count(e.Mutations, "mutation")))
	}
	if len(why) == 0 {
		why = append(why, "the page kept answering requests, loads or input without changing its DOM")
	}
	return fmt.Sprintf("page did not settle within %s: %s", e.Waited, strings.Join(why, "; "))
}

// Reasons an action could not be done, as ActionError.Reason.
const (
	ReasonHidden   = "hidden"
	ReasonDisabled = "disabled"
	ReasonCovered  = "covered"
	ReasonDetached = "detached"
	ReasonMoving   = "moving"
	ReasonReadOnly = "readonly"
	ReasonTimedOut = "timed out"
	ReasonNotFit   = "unsupported" // the element cannot take this action (not a text field, not a select, …)
	// ReasonIgnored: the action went to what draws a control a person
	// cannot see or click (its label), and the page did not react.
	ReasonIgnored = "ignored by the page"
)

// reasonHover is the in-page wait's answer for a target a container's hover
// would show: the caller hovers and waits again; it is never an error.
const reasonHover = "hover"

// ActionError says which element an action was for and why it failed.
type ActionError struct {
	Action    string // click, fill, select, …
	Ref       string
	Role      string
	Name      string
	Reason    string // one of the Reason constants
	Detail    string
	CoveredBy string        // for ReasonCovered: the element on top, as `role "name"`
	Waited    time.Duration // how long the action waited before giving up
}

func (e *ActionError) Error() string {
	target := e.Ref
	if e.Role != "" {
		target += fmt.Sprintf(" (%s %q)", e.Role, e.Name)
	}
	msg := fmt.Sprintf("%s %s: ", e.Action, target)
	switch e.Reason {
	case ReasonCovered:
		msg += "covered by " + e.CoveredBy
	case ReasonDetached:
		msg += "detached"
	default:
		msg += e.Reason
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if e.Waited > 0 {
		msg += fmt.Sprintf(" (waited %s)", e.Waited.Round(time.Millisecond))
	}
	return msg
}

// SecretRefusedError is a text holding a secret that Type or Fill would not
// enter because the page is at an address GuardSecrets refuses: nothing
// was typed.
type SecretRefusedError struct {
	Action, Ref string
	URL         string // where the page is, as the browser holds it
	Why         string // the refusal's reason
}

func (e *SecretRefusedError) Error() string {
	return fmt.Sprintf("%s %s: the secret was not typed: the page is at %s (%s)", e.Action, e.Ref, e.URL, e.Why)
}
