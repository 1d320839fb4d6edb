package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-rod/rod/lib/input"

	"github.com/e2e-dev/e2e/session/step"
)

// DefaultActionTimeout is how long an action waits for its target to become
// actionable when the caller's context allows longer.
const DefaultActionTimeout = 5 * time.Second

// ActOptions tune one action.
type ActOptions struct {
	// Timeout is how long to wait for the target to be attached, visible,
	// enabled, still and on top. Zero means DefaultActionTimeout.
	Timeout time.Duration
	// Revealed, when set, is told when the target was hidden only until a
	// container of it was hovered (a CSS :hover rule) and the action hovered
	// that container first: what is the container as a description says it
	// ("the bread item").
	Revealed func(what string)
}

type readiness struct {
	Enabled  bool  `json:"enabled"`
	Editable bool  `json:"editable"`
	Hit      bool  `json:"hit"`
	Scroll   bool  `json:"scroll"`
	Timeout  int64 `json:"timeout"`
	Hovered  bool  `json:"hovered"` // the container that reveals the target is hovered already
}

type actionable struct {
	OK       bool    `json:"ok"`
	X        float64 `json:"x"`
	Y        float64 `json:"y"`
	Reason   string  `json:"reason"`
	Detail   string  `json:"detail"`
	Role     string  `json:"role"`
	Name     string  `json:"name"`
	TimedOut bool    `json:"timedOut"`
	// StandIn says the action goes to what draws the element rather than
	// the element itself ("its label"): the element is a control a person
	// cannot see or click (see drawnLabel in page.js).
	StandIn string `json:"standIn"`
	Over    *struct {
		Text string `json:"text"`
		Word string `json:"word"`
	} `json:"over"` // reason "hover": the container to hover, in words
	CoveredBy *cover `json:"coveredBy"`
}

// cover is the page's description of an element on top of another.
type cover struct {
	Role string `json:"role"`
	Name string `json:"name"`
	Tag  string `json:"tag"`
	Text string `json:"text"` // a role-less cover's text, when it has some
	In   *struct {
		Role string `json:"role"`
		Name string `json:"name"`
	} `json:"in"`
	Modal *struct {
		Role string `json:"role"`
		Name string `json:"name"`
	} `json:"modal"`
}

// words is the cover as an error names it: `role "name"` (in its
// container), or its tag (the backdrop of a modal).
func (c *cover) words() string {
	if c.Role != "" {
		s := fmt.Sprintf("%s %q", c.Role, c.Name)
		if c.In != nil {
			s += fmt.Sprintf(" in %s %q", c.In.Role, c.In.Name)
		}
		return s
	}
	s := c.Tag
	if c.Text != "" {
		s += fmt.Sprintf(" %q", c.Text)
	}
	if c.Modal != nil {
		s += fmt.Sprintf(" (the backdrop of %s %q)", c.Modal.Role, c.Modal.Name)
	}
	return s
}

// wait blocks until ref can take the action described by need, or returns an
// *ActionError naming the element and the reason. A target hidden only
// until a container is hovered is revealed: the mouse moves over the
// container (once), and the wait goes on, within the same timeout, until
// the target shows; opts.Revealed is told. Hidden for any other reason, or
// still hidden after the hover, it fails as hidden with the reason.
func (p *Page) wait(ctx context.Context, action, ref string, need readiness, opts ActOptions) (*actionable, error) {
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultActionTimeout
	}
	if dl, ok := ctx.Deadline(); ok {
		if left := time.Until(dl) - 200*time.Millisecond; left < timeout {
			timeout = max(left, 10*time.Millisecond)
		}
	}
	need.Timeout = timeout.Milliseconds()
	need.Scroll = true
	start := time.Now()
	var res actionable
	// The in-page wait ends by itself after need.Timeout and says why (covered
	// by what, hidden, …). The call waits a grace period longer for that
	// answer, so that on a loaded machine a late answer is not lost to the
	// step's deadline as a bare timeout; cancelling ctx still stops it at once.
	cctx, cancel := graceContext(ctx, timeout+actionableGrace)
	defer cancel()
	hovered := ""
	for {
		if err := p.call(cctx, &res, "actionable", ref, need); err != nil {
			if isContextDestroyed(err) {
				return nil, &ActionError{Action: action, Ref: ref, Reason: ReasonDetached, Detail: "the page navigated away", Waited: time.Since(start)}
			}
			return nil, fmt.Errorf("%s %s: %w", action, ref, err)
		}
		if res.OK || res.Reason != reasonHover || need.Hovered {
			break
		}
		rp, cancelMove := p.with(ctx)
		err := mouseMove(rp, res.X, res.Y)
		cancelMove()
		if err != nil {
			return nil, fmt.Errorf("%s %s: hover to reveal it: %w", action, ref, classify(ctx, err))
		}
		hovered = "its container"
		if o := res.Over; o != nil && o.Text != "" {
			hovered = "the " + o.Text + " " + o.Word
		} else if o != nil {
			hovered = "its " + o.Word
		}
		need.Hovered = true
		need.Timeout = max(timeout-time.Since(start), 10*time.Millisecond).Milliseconds()
		res = actionable{}
	}
	if res.OK {
		if hovered != "" && opts.Revealed != nil {
			opts.Revealed(hovered)
		}
		return &res, nil
	}
	if hovered != "" && res.Reason == ReasonHidden {
		res.Detail += "; hovering " + hovered + " did not show it"
	}
	e := &ActionError{Action: action, Ref: ref, Role: res.Role, Name: res.Name, Reason: res.Reason, Detail: res.Detail}
	if res.TimedOut {
		e.Waited = time.Since(start).Round(time.Millisecond)
		if e.Reason == ReasonMoving {
			e.Reason = ReasonTimedOut
			e.Detail = "the element never stopped moving"
		}
	}
	if c := res.CoveredBy; c != nil {
		e.CoveredBy = c.words()
	}
	return nil, e
}

// actionableGrace is how much longer than its own timeout the in-page
// actionability wait is given to answer.
const actionableGrace = 2 * time.Second

// graceContext is ctx with its deadline replaced by d from now: it is done
// after d, or as soon as ctx is cancelled (not when ctx's deadline passes).
func graceContext(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	c, cancel := context.WithTimeout(context.WithoutCancel(ctx), d)
	stop := context.AfterFunc(ctx, func() {
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			cancel()
		}
	})
	return c, func() { stop(); cancel() }
}

// Click waits until ref is actionable and clicks its centre with the mouse.
// A checkbox or radio a person cannot see or click (a pixel wide, clipped
// away, drawn over by its label or a sibling) is clicked where it is drawn,
// and the click counts only when the page reacted: the control's checked
// state changed; else it fails with ReasonIgnored.
func (p *Page) Click(ctx context.Context, ref string, opts ActOptions) error {
	_, err := p.click(ctx, "click", ref, opts)
	return err
}

// click is Click for action, and returns what stood in for ref ("" when
// ref itself was clicked).
func (p *Page) click(ctx context.Context, action, ref string, opts ActOptions) (string, error) {
	a, err := p.wait(ctx, action, ref, readiness{Enabled: true, Hit: true}, opts)
	if err != nil {
		return "", err
	}
	var before *bool
	if a.StandIn != "" {
		if err := p.call(ctx, &before, "checkedOf", ref); err != nil {
			return "", fmt.Errorf("%s %s: %w", action, ref, err)
		}
	}
	rp, cancel := p.with(ctx)
	defer cancel()
	if err := mouseClick(rp, a.X, a.Y); err != nil {
		return "", fmt.Errorf("%s %s: %w", action, ref, classify(ctx, err))
	}
	if a.StandIn != "" && before != nil {
		var after *bool
		if err := p.call(ctx, &after, "checkedOf", ref); err != nil {
			return "", fmt.Errorf("%s %s: %w", action, ref, err)
		}
		if after == nil || *after == *before {
			return "", p.notFit(ctx, action, ref, ReasonIgnored, "it cannot be seen or clicked itself; clicking "+a.StandIn+", where it is drawn, did not change its state")
		}
	}
	return a.StandIn, nil
}

// DoubleClick waits until ref is actionable and double-clicks its centre
// with the left mouse button (two presses, the second with clickCount 2).
func (p *Page) DoubleClick(ctx context.Context, ref string, opts ActOptions) error {
	a, err := p.wait(ctx, "double-click", ref, readiness{Enabled: true, Hit: true}, opts)
	if err != nil {
		return err
	}
	rp, cancel := p.with(ctx)
	defer cancel()
	if err := mouseDoubleClick(rp, a.X, a.Y); err != nil {
		return fmt.Errorf("double-click %s: %w", ref, classify(ctx, err))
	}
	return nil
}

// RightClick waits until ref is actionable and clicks its centre with the
// right mouse button, which opens the page's context menu for it.
func (p *Page) RightClick(ctx context.Context, ref string, opts ActOptions) error {
	a, err := p.wait(ctx, "right-click", ref, readiness{Enabled: true, Hit: true}, opts)
	if err != nil {
		return err
	}
	rp, cancel := p.with(ctx)
	defer cancel()
	if err := mouseRightClick(rp, a.X, a.Y); err != nil {
		return fmt.Errorf("right-click %s: %w", ref, classify(ctx, err))
	}
	return nil
}

// Hover moves the mouse over ref's centre once it is actionable.
func (p *Page) Hover(ctx context.Context, ref string, opts ActOptions) error {
	a, err := p.wait(ctx, "hover", ref, readiness{Hit: true}, opts)
	if err != nil {
		return err
	}
	rp, cancel := p.with(ctx)
	defer cancel()
	if err := mouseMove(rp, a.X, a.Y); err != nil {
		return fmt.Errorf("hover %s: %w", ref, classify(ctx, err))
	}
	return nil
}

// ScrollIntoView scrolls every scroll box around ref, then the page (and
// the frames around it), until ref is in view, and waits until it is
// visible as a person sees it (not see-through, clipped away or off the
// page); an element a person cannot reach fails as hidden, with why.
func (p *Page) ScrollIntoView(ctx context.Context, ref string, opts ActOptions) error {
	_, err := p.wait(ctx, "scroll to", ref, readiness{}, opts)
	return err
}

// Holds says whether the element behind outer holds the one behind inner
// (through shadow roots); one that is no longer known is an *ActionError
// with ReasonDetached.
func (p *Page) Holds(ctx context.Context, outer, inner string) (bool, error) {
	var res struct {
		Known bool `json:"known"`
		In    bool `json:"in"`
	}
	if err := p.call(ctx, &res, "holds", outer, inner); err != nil {
		return false, fmt.Errorf("read whether %s holds %s: %w", outer, inner, err)
	}
	if !res.Known {
		return false, &ActionError{Action: "read", Ref: outer + " " + inner, Reason: ReasonDetached}
	}
	return res.In, nil
}

// Fill replaces the value of a text field (input, textarea, contenteditable)
// with text, as a paste would: one input event. As for a click, the field's
// centre must be on top: a field under another element (a sticky header a
// person would scroll away, a banner) fails as covered, naming the cover. Date, time, colour and range
// inputs get their value set directly. A text holding a masked value (see
// MaskSecrets) makes the field masked in captures before it is filled.
func (p *Page) Fill(ctx context.Context, ref, text string, opts ActOptions) error {
	if _, err := p.wait(ctx, "fill", ref, readiness{Enabled: true, Editable: true, Hit: true}, opts); err != nil {
		return err
	}
	if err := p.markSecretField(ctx, "fill", ref, text); err != nil {
		return err
	}
	var state string
	if err := p.call(ctx, &state, "clearAndFocus", ref); err != nil {
		return fmt.Errorf("fill %s: %w", ref, err)
	}
	rp, cancel := p.with(ctx)
	defer cancel()
	switch state {
	case "detached":
		return p.notFit(ctx, "fill", ref, ReasonDetached, "")
	case "not-editable":
		return p.notFit(ctx, "fill", ref, ReasonNotFit, "it is not a text field")
	case "set-value":
		var ok bool
		if err := p.call(ctx, &ok, "setValue", ref, text); err != nil {
			return fmt.Errorf("fill %s: %w", ref, err)
		}
		return nil
	case "selected":
		if text == "" {
			if err := pressChord(rp, nil, input.Backspace); err != nil {
				return fmt.Errorf("fill %s: %w", ref, classify(ctx, err))
			}
			return nil
		}
	}
	if text == "" {
		return nil
	}
	if err := rp.InsertText(text); err != nil {
		return fmt.Errorf("fill %s: %w", ref, classify(ctx, err))
	}
	return nil
}

// Clear empties a text field (a text input, a text area, a contenteditable
// region) as a person does: it focuses the field, selects all its text and
// deletes it with one key press (keydown, beforeinput, input, keyup), then
// fires change on an input or text area, as leaving the field would. A
// date, time, colour or range input has its value set to empty, with input
// and change. As for a click, the field's centre must be on top. A field
// that is empty already is left as it is, and no event fires. It fails
// with an *ActionError: ReasonNotFit for an element that is not a text
// field (a button, a checkbox, a select), ReasonReadOnly or
// ReasonDisabled for a field a person cannot edit, and ReasonIgnored when
// the field still holds text after the delete (the page put it back).
func (p *Page) Clear(ctx context.Context, ref string, opts ActOptions) error {
	if _, err := p.wait(ctx, "clear", ref, readiness{Enabled: true, Editable: true, Hit: true}, opts); err != nil {
		return err
	}
	var state string
	if err := p.call(ctx, &state, "clearAndFocus", ref); err != nil {
		return fmt.Errorf("clear %s: %w", ref, err)
	}
	switch state {
	case "detached":
		return p.notFit(ctx, "clear", ref, ReasonDetached, "")
	case "not-editable":
		return p.notFit(ctx, "clear", ref, ReasonNotFit, "it is not a text field; clear empties a text box, a text area or an editable region")
	case "empty":
		return nil
	case "set-value":
		var ok bool
		if err := p.call(ctx, &ok, "setValue", ref, ""); err != nil {
			return fmt.Errorf("clear %s: %w", ref, err)
		}
		return nil
	}
	rp, cancel := p.with(ctx)
	defer cancel()
	if err := pressChord(rp, nil, input.Backspace); err != nil {
		return fmt.Errorf("clear %s: %w", ref, classify(ctx, err))
	}
	var left *string
	if err := p.call(ctx, &left, "valueOf", ref); err != nil {
		return fmt.Errorf("clear %s: %w", ref, err)
	}
	if left == nil {
		return p.notFit(ctx, "clear", ref, ReasonDetached, "")
	}
	if strings.TrimSpace(*left) != "" {
		// The text is not repeated: it may be a secret typed earlier.
		return p.notFit(ctx, "clear", ref, ReasonIgnored, "it still holds text after selecting all and deleting it")
	}
	var ok bool
	if err := p.call(ctx, &ok, "changed", ref); err != nil {
		return fmt.Errorf("clear %s: %w", ref, err)
	}
	return nil
}

// Type focuses ref and types text key by key (keydown, keypress, input,
// keyup for each character), after what the field already holds. A text
// holding a masked value (see MaskSecrets) makes the field masked in
// captures before the first key.
func (p *Page) Type(ctx context.Context, ref, text string, opts ActOptions) error {
	if _, err := p.wait(ctx, "type into", ref, readiness{Enabled: true, Editable: true, Hit: true}, opts); err != nil {
		return err
	}
	if err := p.markSecretField(ctx, "type into", ref, text); err != nil {
		return err
	}
	var ok bool
	if err := p.call(ctx, &ok, "focus", ref); err != nil {
		return fmt.Errorf("type into %s: %w", ref, err)
	}
	rp, cancel := p.with(ctx)
	defer cancel()
	for _, r := range text {
		var err error
		if k, ok := keyForRune(r); ok {
			err = pressChord(rp, nil, k)
		} else {
			err = rp.InsertText(string(r))
		}
		if err != nil {
			return fmt.Errorf("type into %s: %w", ref, classify(ctx, err))
		}
	}
	return nil
}

func keyForRune(r rune) (input.Key, bool) {
	if r == '\n' {
		return input.Enter, true
	}
	if r < 0x20 || r > 0x7e || r == utf8.RuneError {
		return 0, false
	}
	return input.Key(r), true
}

// SelectOption chooses options of a <select> by value or visible label
// (case-insensitive). Custom ARIA listboxes are chosen by clicking options.
func (p *Page) SelectOption(ctx context.Context, ref string, values []string, opts ActOptions) ([]string, error) {
	return p.selectOptions(ctx, "select", ref, values, "", opts)
}

// AddOption chooses option (by value or visible label, case-insensitive)
// in the <select multiple> behind ref, keeping the options chosen already;
// RemoveOption unchooses it, keeping the others. Both fire input and
// change, and return the options chosen after, in the list's order. A
// select that takes one option, an option it does not have, a disabled
// one, or (to remove) one not chosen fails with an *ActionError naming it.
func (p *Page) AddOption(ctx context.Context, ref, option string, opts ActOptions) ([]string, error) {
	return p.selectOptions(ctx, "add an option to", ref, []string{option}, "add", opts)
}

// RemoveOption: see AddOption.
func (p *Page) RemoveOption(ctx context.Context, ref, option string, opts ActOptions) ([]string, error) {
	return p.selectOptions(ctx, "remove an option from", ref, []string{option}, "remove", opts)
}

func (p *Page) selectOptions(ctx context.Context, action, ref string, values []string, mode string, opts ActOptions) ([]string, error) {
	if _, err := p.wait(ctx, action, ref, readiness{Enabled: true}, opts); err != nil {
		return nil, err
	}
	var res struct {
		Selected []string `json:"selected"`
		Error    string   `json:"error"`
		Options  []string `json:"options"`
		Option   string   `json:"option"`
	}
	args := []any{ref, values}
	if mode != "" {
		args = append(args, mode)
	}
	if err := p.call(ctx, &res, "selectOption", args...); err != nil {
		return nil, fmt.Errorf("%s %s: %w", action, ref, err)
	}
	switch res.Error {
	case "":
		return res.Selected, nil
	case "detached":
		return nil, p.notFit(ctx, action, ref, ReasonDetached, "")
	case "not-select":
		return nil, p.notFit(ctx, action, ref, ReasonNotFit, "it is not a <select>; click the option instead")
	case "no-option":
		return nil, p.notFit(ctx, action, ref, ReasonNotFit, fmt.Sprintf("no option %q (options: %s)", strings.Join(values, ", "), strings.Join(res.Options, ", ")))
	case "option-disabled":
		return nil, p.notFit(ctx, action, ref, ReasonDisabled, fmt.Sprintf("option %q is disabled", res.Option))
	case "not-chosen":
		return nil, p.notFit(ctx, action, ref, ReasonNotFit, fmt.Sprintf("option %q is not chosen (chosen: %s)", res.Option, strings.Join(res.Options, ", ")))
	}
	if mode != "" {
		return nil, p.notFit(ctx, action, ref, ReasonNotFit, "it takes one option only; choose it with select: { from: …, option: … }")
	}
	return nil, p.notFit(ctx, action, ref, ReasonNotFit, "it takes one option only")
}

// SetChecked checks or unchecks a checkbox, radio or switch by clicking it
// when its state differs, and verifies the state changed.
func (p *Page) SetChecked(ctx context.Context, ref string, want bool, opts ActOptions) error {
	action := map[bool]string{true: "check", false: "uncheck"}[want]
	var state *bool
	if err := p.call(ctx, &state, "checkedOf", ref); err != nil {
		return fmt.Errorf("%s %s: %w", action, ref, err)
	}
	if state == nil {
		return p.notFit(ctx, action, ref, ReasonNotFit, "it is not a checkbox, radio or switch")
	}
	if *state == want {
		return nil
	}
	standIn, err := p.click(ctx, action, ref, opts)
	if err != nil {
		return err
	}
	if err := p.call(ctx, &state, "checkedOf", ref); err != nil {
		return fmt.Errorf("%s %s: %w", action, ref, err)
	}
	if state == nil || *state != want {
		if standIn != "" {
			return p.notFit(ctx, action, ref, ReasonIgnored, "clicking "+standIn+", where it is drawn, did not change its state")
		}
		return p.notFit(ctx, action, ref, ReasonNotFit, "clicking it did not change its state")
	}
	return nil
}

// Press presses a key or chord ("Enter", "Control+a", "Shift+Tab"), in ref
// when ref is not empty (it is focused first), else in the focused element.
func (p *Page) Press(ctx context.Context, ref, keys string, opts ActOptions) error {
	mods, key, err := parseChord(keys)
	if err != nil {
		return err
	}
	if ref != "" {
		if _, err := p.wait(ctx, "press in", ref, readiness{}, opts); err != nil {
			return err
		}
		var ok bool
		if err := p.call(ctx, &ok, "focus", ref); err != nil {
			return fmt.Errorf("press %s: %w", keys, err)
		}
	}
	rp, cancel := p.with(ctx)
	defer cancel()
	if err := pressChord(rp, mods, key); err != nil {
		return fmt.Errorf("press %s: %w", keys, classify(ctx, err))
	}
	return nil
}

var namedKeys = map[string]input.Key{
	"enter": input.Enter, "return": input.Enter, "tab": input.Tab, "escape": input.Escape, "esc": input.Escape,
	"backspace": input.Backspace, "delete": input.Delete, "space": input.Space, " ": input.Space,
	"arrowup": input.ArrowUp, "arrowdown": input.ArrowDown, "arrowleft": input.ArrowLeft, "arrowright": input.ArrowRight,
	"up": input.ArrowUp, "down": input.ArrowDown, "left": input.ArrowLeft, "right": input.ArrowRight,
	"home": input.Home, "end": input.End, "pageup": input.PageUp, "pagedown": input.PageDown, "insert": input.Insert,
	"shift": input.ShiftLeft, "control": input.ControlLeft, "ctrl": input.ControlLeft, "alt": input.AltLeft,
	"meta": input.MetaLeft, "cmd": input.MetaLeft, "f1": input.F1, "f2": input.F2, "f3": input.F3, "f4": input.F4,
	"f5": input.F5, "f6": input.F6, "f7": input.F7, "f8": input.F8, "f9": input.F9, "f10": input.F10,
	"f11": input.F11, "f12": input.F12,
}

// keyNames are the key names as they are written in tests, for hints.
var keyNames = []string{"Enter", "Return", "Tab", "Escape", "Backspace", "Delete", "Space", "ArrowUp", "ArrowDown",
	"ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown", "Insert", "Shift", "Control", "Alt", "Meta",
	"F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12"}

// CheckKeys reports whether Press knows every key of the chord keys, as
// Press itself parses it: the error names an unknown key, with a "did you
// mean" when one is close.
func CheckKeys(keys string) error {
	_, _, err := parseChord(keys)
	return err
}

// parseChord splits "Control+Shift+a" into modifier keys and the final key.
func parseChord(s string) (mods []input.Key, key input.Key, err error) {
	parts := strings.Split(s, "+")
	if strings.HasSuffix(s, "++") || s == "+" { // "Control++" means the plus key
		parts = append(parts[:len(parts)-2], "+")
	}
	for i, part := range parts {
		k, ok := namedKeys[strings.ToLower(part)]
		if !ok && utf8.RuneCountInString(part) == 1 {
			r, _ := utf8.DecodeRuneInString(part)
			k, ok = keyForRune(r)
		}
		if !ok {
			hint := ""
			if c := step.Closest(part, keyNames); c != "" {
				hint = "did you mean " + c + "? "
			}
			return nil, 0, fmt.Errorf("press %q: unknown key %q (%suse names like Enter, Tab, Escape, ArrowDown, Control+a)", s, part, hint)
		}
		if i < len(parts)-1 {
			mods = append(mods, k)
		} else {
			key = k
		}
	}
	return mods, key, nil
}

// Value returns the current value of a form field (or the text of another element).
func (p *Page) Value(ctx context.Context, ref string) (string, error) {
	var v *string
	if err := p.call(ctx, &v, "valueOf", ref); err != nil {
		return "", err
	}
	if v == nil {
		return "", &ActionError{Action: "read", Ref: ref, Reason: ReasonDetached}
	}
	return *v, nil
}

func (p *Page) notFit(ctx context.Context, action, ref, reason, detail string) error {
	var info struct {
		Role string `json:"role"`
		Name string `json:"name"`
	}
	_ = p.call(ctx, &info, "info", ref)
	return &ActionError{Action: action, Ref: ref, Role: info.Role, Name: info.Name, Reason: reason, Detail: detail}
}

// Seen judges the element behind ref as a person looking at the page
// would, after scrolling it into view (every scroll box around it, then the
// page): nil when they see it, else an *ActionError (action "see") with
// ReasonHidden and why (display: none, visibility, opacity 0, inert, inside
// a closed <details>, no size, clipped away by an ancestor, outside the
// page), ReasonCovered naming what lies over the whole of it, or
// ReasonDetached. docs/locating.md ("Visible, as a person sees it") has the
// rule. Other errors are the call's own.
func (p *Page) Seen(ctx context.Context, ref string) (*ActionError, error) {
	var res struct {
		Seen      bool   `json:"seen"`
		Role      string `json:"role"`
		Name      string `json:"name"`
		Reason    string `json:"reason"`
		Detail    string `json:"detail"`
		CoveredBy *cover `json:"coveredBy"`
	}
	if err := p.call(ctx, &res, "seen", ref); err != nil {
		return nil, fmt.Errorf("see %s: %w", ref, err)
	}
	if res.Seen {
		return nil, nil
	}
	e := &ActionError{Action: "see", Ref: ref, Role: res.Role, Name: res.Name, Reason: res.Reason, Detail: res.Detail}
	if res.CoveredBy != nil {
		e.CoveredBy = res.CoveredBy.words()
	}
	return e, nil
}

// Attribute returns the value of the attribute called name on the element
// behind ref, and whether the element has it. A ref the page never gave
// out is an *ActionError with ReasonDetached.
func (p *Page) Attribute(ctx context.Context, ref, name string) (string, bool, error) {
	var v struct {
		Found bool    `json:"found"`
		Value *string `json:"value"`
	}
	if err := p.call(ctx, &v, "attributeOf", ref, name); err != nil {
		return "", false, fmt.Errorf("read attribute %s of %s: %w", name, ref, err)
	}
	if !v.Found {
		return "", false, &ActionError{Action: "read", Ref: ref, Reason: ReasonDetached}
	}
	if v.Value == nil {
		return "", false, nil
	}
	return *v.Value, true, nil
}
