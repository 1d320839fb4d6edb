package browser

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/ax"
)

// ref snapshots the page and returns the ref of the node with role and name.
func ref(t *testing.T, p *Page, role, name string) string {
	t.Helper()
	return find(t, snap(t, p, SnapshotOptions{}), role, name).Ref
}

func settle(t *testing.T, p *Page) {
	t.Helper()
	if _, err := p.Settle(ctxT(t), SettleOptions{Quiet: 50 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
}

// has reports whether the settled page's snapshot shows a node with role and name.
func has(t *testing.T, p *Page, role, name string) bool {
	t.Helper()
	settle(t, p)
	found := false
	snap(t, p, SnapshotOptions{}).Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == role && n.Name == name {
			found = true
		}
		return !found
	})
	return found
}

func textOf(t *testing.T, p *Page) string {
	t.Helper()
	settle(t, p)
	return snap(t, p, SnapshotOptions{}).Text(ax.TextOptions{})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestActionsLoginFlow(t *testing.T) {
	p := newPage(t)
	base := fixtureURL(t)
	open(t, p, base+"/login")
	ctx := ctxT(t)
	must(t, p.Fill(ctx, ref(t, p, "textbox", "Email"), "alice@example.com", ActOptions{}))
	must(t, p.Fill(ctx, ref(t, p, "textbox", "Password"), "wrong", ActOptions{}))
	must(t, p.SetChecked(ctx, ref(t, p, "checkbox", "Remember me"), true, ActOptions{}))
	if v, _ := p.Value(ctx, ref(t, p, "textbox", "Email")); v != "alice@example.com" {
		t.Fatalf("email value %q", v)
	}
	must(t, p.Click(ctx, ref(t, p, "button", "Sign in"), ActOptions{}))
	if !strings.Contains(textOf(t, p), "Invalid email or password") {
		t.Fatal("no alert after a wrong password")
	}
	// Fill replaces what a field holds.
	must(t, p.Fill(ctx, ref(t, p, "textbox", "Email"), "alice@example.com", ActOptions{}))
	must(t, p.Fill(ctx, ref(t, p, "textbox", "Password"), "correct-horse", ActOptions{}))
	must(t, p.Press(ctx, ref(t, p, "textbox", "Password"), "Enter", ActOptions{}))
	settle(t, p)
	if u, _ := p.URL(ctx); !strings.HasSuffix(u, "/users") {
		t.Fatalf("after signing in: at %s", u)
	}
}

func TestActionsUsersRowMenu(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/users")
	ctx := ctxT(t)
	s := snap(t, p, SnapshotOptions{})
	var aliceMenu string
	s.Walk(func(n *ax.Node, anc []*ax.Node) bool {
		if n.Role == "button" && n.Name == "Menu" && len(anc) > 0 {
			for _, a := range anc {
				if a.Role == "row" && strings.HasPrefix(a.Name, "Alice ") {
					aliceMenu = n.Ref
				}
			}
		}
		return aliceMenu == ""
	})
	must(t, p.Click(ctx, aliceMenu, ActOptions{}))
	if !has(t, p, "menuitem", "Archive") {
		t.Fatalf("menu did not open:\n%s", textOf(t, p))
	}
	must(t, p.Press(ctx, "", "Escape", ActOptions{}))
	if has(t, p, "menuitem", "Archive") {
		t.Fatal("Escape did not close the menu")
	}
	must(t, p.Click(ctx, aliceMenu, ActOptions{}))
	settle(t, p)
	must(t, p.Click(ctx, ref(t, p, "menuitem", "Archive"), ActOptions{}))
	text := textOf(t, p)
	if strings.Contains(text, `row "Alice`) || !strings.Contains(text, "Alice archived") {
		t.Fatalf("archive did not remove Alice:\n%s", text)
	}
}

func TestActionsProductAndHover(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/product")
	must(t, p.Click(ctxT(t), ref(t, p, "button", "Add to cart"), ActOptions{}))
	if text := textOf(t, p); !strings.Contains(text, "Cart: 1 item") {
		t.Fatalf("cart did not update:\n%s", text)
	}
	open(t, p, fixtureURL(t)+"/actions")
	must(t, p.Hover(ctxT(t), ref(t, p, "generic", "Hover me"), ActOptions{}))
	if text := textOf(t, p); !strings.Contains(text, "Tooltip shown") {
		t.Fatalf("hover did not show the tooltip:\n%s", text)
	}
}

func TestActionsBookingForm(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/booking")
	ctx := ctxT(t)
	// Typed key by key, the combobox fetches suggestions as the user types.
	must(t, p.Type(ctx, ref(t, p, "combobox", "From"), "SF", ActOptions{}))
	settle(t, p)
	s := snap(t, p, SnapshotOptions{})
	var sfo string
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "option" && strings.HasPrefix(n.Name, "SFO") {
			sfo = n.Ref
		}
		return sfo == ""
	})
	if sfo == "" {
		t.Fatalf("no SFO suggestion:\n%s", s.Text(ax.TextOptions{}))
	}
	must(t, p.Click(ctx, sfo, ActOptions{}))
	must(t, p.Type(ctx, ref(t, p, "combobox", "To"), "IAD", ActOptions{}))
	settle(t, p)
	s = snap(t, p, SnapshotOptions{})
	var iad string
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "option" && strings.HasPrefix(n.Name, "IAD") {
			iad = n.Ref
		}
		return iad == ""
	})
	must(t, p.Click(ctx, iad, ActOptions{}))
	must(t, p.SetChecked(ctx, ref(t, p, "radio", "One way"), true, ActOptions{}))
	got, err := p.SelectOption(ctx, ref(t, p, "combobox", "Cabin class"), []string{"business"}, ActOptions{})
	must(t, err)
	if len(got) != 1 || got[0] != "Business" {
		t.Fatalf("selected %v", got)
	}
	must(t, p.Click(ctx, ref(t, p, "button", "Choose date"), ActOptions{}))
	settle(t, p)
	var day string
	snap(t, p, SnapshotOptions{}).Walk(func(n *ax.Node, anc []*ax.Node) bool {
		if day == "" && n.Role == "button" && strings.HasSuffix(n.Name, ", 2026") && strings.Contains(n.Name, " 14,") {
			day = n.Ref
		}
		return day == ""
	})
	if day == "" {
		t.Fatalf("no day 14 in the date picker:\n%s", textOf(t, p))
	}
	must(t, p.Click(ctx, day, ActOptions{}))
	must(t, p.Click(ctx, ref(t, p, "button", "Search flights"), ActOptions{}))
	// The results come from a fetch whose body is read after the request
	// ends: wait for them (a stalled machine can be quiet for a while
	// between the two).
	var text string
	waitFor(t, "the results", func() ([]string, bool) {
		text = textOf(t, p)
		return []string{text}, strings.Contains(text, "from SFO to IAD") && strings.Contains(text, "Business")
	}, nil)
}

func TestActionsSearchPressEnter(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/search")
	ctx := ctxT(t)
	box := ref(t, p, "searchbox", "Search products")
	must(t, p.Fill(ctx, box, "trail", ActOptions{}))
	must(t, p.Press(ctx, box, "Enter", ActOptions{}))
	// Settling waits for the delayed results (a fetch in flight keeps the page busy).
	settle(t, p)
	n := 0
	snap(t, p, SnapshotOptions{}).Walk(func(n2 *ax.Node, _ []*ax.Node) bool {
		if n2.Role == "link" && strings.HasPrefix(n2.States.URL, "/product?id=") {
			n++
		}
		return true
	})
	if n == 0 {
		t.Fatalf("no results after settling:\n%s", textOf(t, p))
	}
}

func TestActionsKeysScrollSelectCheckFramesShadow(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/actions")
	ctx := ctxT(t)
	must(t, p.Press(ctx, ref(t, p, "textbox", "Key target"), "Enter", ActOptions{}))
	if !strings.Contains(textOf(t, p), "Last key: Enter") {
		t.Fatal("key press not seen")
	}
	must(t, p.Press(ctx, ref(t, p, "textbox", "Key target"), "Shift+Tab", ActOptions{}))
	must(t, p.Fill(ctx, ref(t, p, "textbox", "Notes"), "hello", ActOptions{}))
	must(t, p.Press(ctx, ref(t, p, "textbox", "Notes"), "Control+a", ActOptions{}))
	must(t, p.Press(ctx, "", "Backspace", ActOptions{}))
	if v, _ := p.Value(ctx, ref(t, p, "textbox", "Notes")); v != "" {
		t.Errorf("Control+a Backspace left %q", v)
	}
	_, err := p.SelectOption(ctx, ref(t, p, "combobox", "Priority"), []string{"High"}, ActOptions{})
	must(t, err)
	sub := ref(t, p, "checkbox", "Subscribe")
	must(t, p.SetChecked(ctx, sub, true, ActOptions{}))
	must(t, p.SetChecked(ctx, sub, true, ActOptions{})) // already checked: no-op
	must(t, p.SetChecked(ctx, sub, false, ActOptions{}))
	if n := find(t, snap(t, p, SnapshotOptions{}), "checkbox", "Subscribe"); n.States.Checked != "false" {
		t.Error("uncheck did not stick")
	}
	far := ref(t, p, "button", "Far away")
	must(t, p.ScrollIntoView(ctx, far, ActOptions{}))
	must(t, p.Click(ctx, far, ActOptions{}))
	if !strings.Contains(textOf(t, p), "Clicked: Far away") {
		t.Fatal("click far down the page not seen")
	}
	must(t, p.Click(ctx, ref(t, p, "button", "Late action"), ActOptions{}))   // waits until enabled
	must(t, p.Click(ctx, ref(t, p, "button", "Moving action"), ActOptions{})) // waits until still

	open(t, p, fixtureURL(t)+"/a11y")
	must(t, p.Fill(ctx, ref(t, p, "textbox", "Frame field"), "in a frame", ActOptions{}))
	must(t, p.Click(ctx, ref(t, p, "button", "Frame button"), ActOptions{}))
	must(t, p.Fill(ctx, ref(t, p, "textbox", "Shadow field"), "in a shadow root", ActOptions{}))
	must(t, p.Click(ctx, ref(t, p, "button", "Shadow button"), ActOptions{}))
	s := snap(t, p, SnapshotOptions{})
	if v := find(t, s, "textbox", "Frame field").States.Value; v != "in a frame" {
		t.Errorf("frame field value %q", v)
	}
	if v := find(t, s, "textbox", "Shadow field").States.Value; v != "in a shadow root" {
		t.Errorf("shadow field value %q", v)
	}
}

// actionErr asserts err is an *ActionError with the reason and that its
// message names the ref, role and name.
func actionErr(t *testing.T, err error, reason, role, name string) *ActionError {
	t.Helper()
	var ae *ActionError
	if !errors.As(err, &ae) {
		t.Fatalf("want an ActionError (%s), got %v", reason, err)
	}
	if ae.Reason != reason || ae.Role != role || ae.Name != name {
		t.Fatalf("got reason %q for %s %q, want %q for %s %q (%v)", ae.Reason, ae.Role, ae.Name, reason, role, name, err)
	}
	msg := err.Error()
	if !strings.Contains(msg, ae.Ref) || !strings.Contains(msg, role) || !strings.Contains(msg, name) {
		t.Fatalf("message does not name the element: %s", msg)
	}
	return ae
}

func TestActionFailureReasons(t *testing.T) {
	p := newPage(t)
	base := fixtureURL(t)
	ctx := ctxT(t)
	short := ActOptions{Timeout: 400 * time.Millisecond}

	// Detached: the element was removed after the snapshot that gave its ref.
	open(t, p, base+"/actions")
	far := ref(t, p, "button", "Far away")
	must(t, p.Eval(ctx, nil, `() => document.querySelector('[data-testid=far-away]').remove()`))
	actionErr(t, p.Click(ctx, far, short), ReasonDetached, "button", "Far away")

	open(t, p, base+"/actions")
	ae := actionErr(t, p.Click(ctx, ref(t, p, "button", "Disabled action"), short), ReasonDisabled, "button", "Disabled action")
	if ae.Waited < 300*time.Millisecond {
		t.Errorf("gave up after %s, before its timeout", ae.Waited)
	}
	ae = actionErr(t, p.Click(ctx, ref(t, p, "button", "Covered action"), short), ReasonCovered, "button", "Covered action")
	if ae.CoveredBy != `button "Accept cookies" in dialog "Cookie banner"` || !strings.Contains(ae.Error(), `covered by button "Accept cookies" in dialog "Cookie banner"`) {
		t.Errorf("covered by %q: %v", ae.CoveredBy, ae)
	}
	must(t, p.Click(ctx, ref(t, p, "button", "Accept cookies"), ActOptions{}))
	must(t, p.Click(ctx, ref(t, p, "button", "Covered action"), ActOptions{}))

	// Hidden: the snapshot leaves hidden elements out, so reach one the way
	// a cached ref would: it was visible, then got hidden.
	notes := ref(t, p, "textbox", "Notes")
	must(t, p.Eval(ctx, nil, `() => { document.querySelector('[data-testid=notes]').closest('section').style.display = 'none'; }`))
	ae = actionErr(t, p.Fill(ctx, notes, "x", short), ReasonHidden, "textbox", "Notes")
	if !strings.Contains(ae.Detail, "display: none") {
		t.Errorf("hidden detail: %q", ae.Detail)
	}

	// Timed out: an element that keeps moving past the timeout.
	open(t, p, base+"/actions")
	must(t, p.Eval(ctx, nil, `() => { document.querySelector('[data-testid=moving-action]').style.animation = 'slide .2s linear infinite alternate'; }`))
	actionErr(t, p.Click(ctx, ref(t, p, "button", "Moving action"), short), ReasonTimedOut, "button", "Moving action")

	// Unsupported: an action the element cannot take.
	actionErr(t, p.Fill(ctx, ref(t, p, "button", "Far away"), "x", short), ReasonNotFit, "button", "Far away")
	_, err := p.SelectOption(ctx, ref(t, p, "combobox", "Priority"), []string{"Urgent"}, short)
	ae = actionErr(t, err, ReasonNotFit, "combobox", "Priority")
	if !strings.Contains(ae.Detail, "Low, Medium, High") {
		t.Errorf("no-option error should list the options: %v", ae)
	}
	actionErr(t, p.SetChecked(ctx, ref(t, p, "button", "Far away"), true, short), ReasonNotFit, "button", "Far away")
	if err := p.Press(ctx, "", "Hyper+q", short); err == nil || !strings.Contains(err.Error(), `unknown key "Hyper"`) {
		t.Errorf("unknown key: %v", err)
	}

	// A context deadline bounds the wait too.
	open(t, p, base+"/actions")
	disabled := ref(t, p, "button", "Disabled action")
	dctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	err = p.Click(dctx, disabled, ActOptions{Timeout: time.Minute})
	actionErr(t, err, ReasonDisabled, "button", "Disabled action")
}
