package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/e2e-dev/e2e/session"
)

// Views are compared as golden files under testdata/ (go test ./tui -update
// rewrites them) with colours off, so they read as text.
func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

var t0 = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

// clock is a fixed clock the tests move by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

const outline = `- banner:
  - link "Shop" [url=/] [ref=e1]
  - navigation "Primary":
    - link "Products" [url=/products] [ref=e2]
    - link "Cart" [url=/cart] [ref=e3]
- main:
  - heading "Trail shoe" [level=1]
  - img "A blue trail running shoe"
  - text: Light, grippy and waterproof.
  - status "Cart status": "Cart: 0 items"
  - combobox "Size" [value=42] [ref=e4]
  - button "Add to cart" [ref=e5]
  - button "Buy now" [ref=e6]
  - button "Add to wishlist" [ref=e7]
  - region "Reviews":
    - heading "Reviews" [level=2]
    - article "Great grip":
      - text: Five stars, would run again.
    - article "Runs small":
      - text: Order a size up.
- contentinfo:
  - link "Terms" [url=/terms] [ref=e8]
  - link "Privacy" [url=/privacy] [ref=e9]`

// sessionModel is a run half way: a plain step passed, an act is running
// with one decided and one proposed step, the page targets Add to cart.
func sessionModel(t *testing.T, w, h int, mode Mode) Model {
	t.Helper()
	c := &clock{now: t0}
	m := New(Options{Mode: mode, Title: "add to cart", Now: c.Now, Reviewer: "ann", Gate: NewGate(false)})
	m = update(m, tea.WindowSizeMsg{Width: w, Height: h})
	events := []session.Event{
		session.TestStarted{Test: "add to cart", File: "tests/cart.e2e.yaml", At: t0, Steps: []string{
			`--step-type NAVIGATE --value "/product"`,
			`--step-type ACT --description "put the trail shoe in the cart"`,
			`--step-type EXPECT --expect text --description "the cart status" --value "Cart: 1 item"`,
		}},
		session.StepStarted{Index: 0, Sub: -1, Command: `--step-type NAVIGATE --value "/product"`},
		session.StepFinished{Index: 0, Sub: -1, Command: `--step-type NAVIGATE --value "/product"`, Status: session.StatusPassed, Cache: session.CacheNone},
		session.StepStarted{Index: 1, Sub: -1, Command: `--step-type ACT --description "put the trail shoe in the cart"`},
		session.ModelCalled{Call: session.ModelCall{Purpose: "act", TokensIn: 1800, TokensOut: 60, Cost: 0.0021, Outcome: "ok"}},
		session.StepStarted{Index: 1, Sub: 0, Command: `--step-type CLICK --description "the Buy now button"`},
		session.ToolCallDecided{Proposal: session.Proposal{ID: 1, Kind: session.ProposedByAgent, Index: 1, Goal: "put the trail shoe in the cart", Command: `--step-type CLICK --description "the Buy now button"`},
			Decision: session.Decision{Verdict: session.Reject, Reason: "buying is not the goal", By: "ann"}},
		session.StepFinished{Index: 1, Sub: 0, Command: `--step-type CLICK --description "the Buy now button"`, Status: session.StatusFailed, Cache: session.CacheFailed, Error: "REJECTED by the engineer, not run. Their reason: buying is not the goal"},
		session.ModelCalled{Call: session.ModelCall{Purpose: "act", TokensIn: 2100, TokensOut: 55, Cost: 0.0024, Outcome: "ok"}},
		session.SnapshotUpdated{URL: "http://127.0.0.1:8080/product", Title: "Trail shoe", Outline: outline, Target: "e5"},
		session.StepStarted{Index: 1, Sub: 1, Command: `--step-type CLICK --description "the Add to cart button"`},
	}
	if mode == ModeNew {
		events = events[:0]
		events = append(events,
			session.TestStarted{Test: "new product test", File: "product.e2e.yaml", At: t0},
			session.SnapshotUpdated{URL: "http://127.0.0.1:8080/product", Title: "Trail shoe", Outline: outline},
			session.StepStarted{Index: 0, Sub: -1, Command: `--step-type SELECT --description "the Size dropdown" --value "43"`},
			session.StepFinished{Index: 0, Sub: -1, Command: `--step-type SELECT --description "the Size dropdown" --value "43"`, Status: session.StatusLocated, Cache: session.CacheNew},
			session.StepStarted{Index: 1, Sub: -1, Command: `--step-type ACT --description "put the trail shoe in the cart"`},
			session.ModelCalled{Call: session.ModelCall{Purpose: "act", TokensIn: 1800, TokensOut: 60, Cost: 0.0021, Outcome: "ok"}},
			session.StepStarted{Index: 1, Sub: 0, Command: `--step-type CLICK --description "the Add to cart button"`},
		)
	}
	for _, e := range events {
		m = update(m, EventMsg{Event: e})
	}
	c.add(12 * time.Second)
	m = update(m, proposalMsg{p: session.Proposal{ID: 2, Kind: session.ProposedByAgent, Index: 1, Goal: "put the trail shoe in the cart",
		Command: `--step-type CLICK --description "the Add to cart button"`}, reply: make(chan session.Decision, 1)})
	return m
}

func update(m Model, msg tea.Msg) Model {
	nm, _ := m.Update(msg)
	return nm.(Model)
}

func keys(m Model, ks ...string) Model {
	for _, k := range ks {
		m = update(m, keyMsg(k))
	}
	return m
}

func keyMsg(k string) tea.KeyMsg {
	switch k {
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "pgdown":
		return tea.KeyMsg{Type: tea.KeyPgDown}
	case "pgup":
		return tea.KeyMsg{Type: tea.KeyPgUp}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// fakeHeals is a HealStore in memory.
type fakeHeals struct {
	mu    sync.Mutex
	heals []session.Heal
	err   error
}

func (f *fakeHeals) Heals(_ context.Context, status string) ([]session.Heal, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	var out []session.Heal
	for _, h := range f.heals {
		if status == "" || h.Status == status {
			out = append(out, h)
		}
	}
	return out, nil
}

func (f *fakeHeals) DecideHeal(_ context.Context, id int64, accept bool, by string) (*session.Heal, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.heals {
		if f.heals[i].ID == id {
			if f.heals[i].Status != "staged" {
				return nil, fmt.Errorf("heal %d was already %s", id, f.heals[i].Status)
			}
			f.heals[i].Status = map[bool]string{true: "accepted", false: "rejected"}[accept]
			f.heals[i].DecidedBy, f.heals[i].DecidedAt = by, t0.Add(time.Hour)
			h := f.heals[i]
			return &h, nil
		}
	}
	return nil, errors.New("no such heal")
}

func sampleHeals() *fakeHeals {
	return &fakeHeals{heals: []session.Heal{
		{ID: 7, Test: "add to cart", Goal: "put the trail shoe in the cart", Status: "staged", CreatedAt: t0, FailedIndex: 0,
			OldSteps:      []string{`--step-type CLICK --description "the Add to cart button" --cache-id a1`, `--step-type EXPECT --expect text --description "the cart status" --value "Cart: 1 item"`},
			NewSteps:      []string{`--step-type CLICK --description "the No thanks button" --cache-id b2`, `--step-type CLICK --description "the Add to cart button" --cache-id a1`, `--step-type EXPECT --expect text --description "the cart status" --value "Cart: 1 item"`},
			Reason:        `step 1 (--step-type CLICK --description "the Add to cart button") failed: the element is covered by dialog "Newsletter"`,
			Postcondition: "the cart status reads Cart: 1 item",
			Evidence:      session.Evidence{Route: "/product", Appeared: []string{`status "Cart: 1 item"`}, Vanished: []string{`dialog "Newsletter"`, `status "Cart: 0 items"`}},
			PageBefore:    "- main:\n  - heading \"Trail Runner 2\" [level=1]\n  - paragraph: $129.00\n  - button \"Add to cart\" [ref=e27]\n  - button \"Buy now\" [ref=e28]\n  - status: Cart: 0 items\n  - paragraph\n- dialog \"Newsletter\":\n  - button \"No thanks\" [focused] [ref=e37]\n  - button \"Subscribe\" [ref=e38]\n",
			PageAfter:     "- main:\n  - heading \"Trail Runner 2\" [level=1]\n  - paragraph: $129.00\n  - button \"Add to cart\" [focused] [ref=e27]\n  - button \"Buy now\" [ref=e28]\n  - status: Cart: 1 item\n  - paragraph\n"},
		{ID: 5, Test: "search flights", Goal: "search flights from SFO to IAD, one way", Status: "staged", CreatedAt: t0.Add(-time.Hour), FailedIndex: 2,
			OldSteps: []string{`--step-type TYPE --description "the From field" --value "SFO"`, `--step-type TYPE --description "the To field" --value "IAD"`, `--step-type CLICK --description "the Search button"`},
			NewSteps: []string{`--step-type TYPE --description "the From field" --value "SFO"`, `--step-type TYPE --description "the To field" --value "IAD"`, `--step-type CLICK --description "the Find flights button"`, `--step-type WAIT --description "the Results region"`},
			Reason:   `step 3 (--step-type CLICK --description "the Search button") failed: no element matches "the Search button"`},
	}}
}

func healModel(t *testing.T, w, h int) Model {
	t.Helper()
	c := &clock{now: t0}
	m := New(Options{Mode: ModeHeals, Heals: sampleHeals(), Now: c.Now, Reviewer: "ann"})
	m = update(m, tea.WindowSizeMsg{Width: w, Height: h})
	msg := m.loadHeals()()
	return update(m, msg)
}

// TestViews draws each screen at 80×24 and 160×48 against its golden file.
func TestViews(t *testing.T) {
	screens := map[string]func(t *testing.T, w, h int) Model{
		"session": func(t *testing.T, w, h int) Model { return sessionModel(t, w, h, ModeRun) },
		"session-trajectory": func(t *testing.T, w, h int) Model {
			return keys(sessionModel(t, w, h, ModeRun), "tab", "tab")
		},
		"new-test":  func(t *testing.T, w, h int) Model { return sessionModel(t, w, h, ModeNew) },
		"heal-list": healModel,
		"new-start": func(t *testing.T, w, h int) Model {
			m := New(Options{Mode: ModeNew, Title: "new product test", Now: (&clock{now: t0}).Now, Gate: NewGate(false)})
			return update(m, tea.WindowSizeMsg{Width: w, Height: h})
		},
		"run-unreachable": func(t *testing.T, w, h int) Model {
			m := New(Options{Mode: ModeRun, Title: "users", Now: (&clock{now: t0}).Now, Gate: NewGate(false)})
			m = update(m, tea.WindowSizeMsg{Width: w, Height: h})
			m = update(m, EventMsg{Event: session.TestStarted{Test: "users", File: "examples/users.e2e.yaml", At: t0, Steps: []string{`--step-type CLICK --description "the Menu button"`}}})
			return update(m, EventMsg{Event: session.TestFinished{Result: session.TestResult{Status: "failed",
				Error: "navigate to http://127.0.0.1:3000/users: connection refused (net::ERR_CONNECTION_REFUSED)"}}})
		},
		"heal-diff": func(t *testing.T, w, h int) Model { return keys(healModel(t, w, h), "enter") },
		// The selected step wraps in the trajectory pane; the others stay cut.
		"trajectory-selected": func(t *testing.T, w, h int) Model { return keys(detailModel(t, w, h), "tab", "tab") },
		"step-detail":         func(t *testing.T, w, h int) Model { return keys(detailModel(t, w, h), "tab", "tab", "enter") },
		"step-detail-scrolled": func(t *testing.T, w, h int) Model {
			return keys(detailModel(t, w, h), "tab", "tab", "enter", "pgdown")
		},
		"step-detail-act": func(t *testing.T, w, h int) Model { return keys(detailModel(t, w, h), "tab", "tab", "up", "enter") },
		"help":            func(t *testing.T, w, h int) Model { return keys(sessionModel(t, w, h, ModeRun), "?") },
		"error": func(t *testing.T, w, h int) Model {
			m := New(Options{Mode: ModeError, File: "tests/cart.e2e.yaml", Now: (&clock{now: t0}).Now,
				Err: errors.New("tests/cart.e2e.yaml:4:5: unknown step \"clik\"; did you mean click?\n  4 |   - clik: the Add to cart button\n    |     ^^^^")})
			return update(m, tea.WindowSizeMsg{Width: w, Height: h})
		},
	}
	for name, mk := range screens {
		for _, size := range [][2]int{{80, 24}, {160, 48}} {
			t.Run(fmt.Sprintf("%s-%dx%d", name, size[0], size[1]), func(t *testing.T) {
				v := mk(t, size[0], size[1]).View()
				lines := strings.Split(v, "\n")
				if len(lines) != size[1] {
					t.Errorf("%d lines, want %d", len(lines), size[1])
				}
				for i, l := range lines {
					if w := lipgloss.Width(l); w != size[0] {
						t.Errorf("line %d is %d wide, want %d: %q", i+1, w, size[0], l)
					}
				}
				golden.RequireEqual(t, []byte(v))
			})
		}
	}
}

// TestKeysAskTheCommandLayer: g runs again, R re-records the act under the
// trajectory cursor (not a plain step), i and w type and write a new test.
func TestKeysAskTheCommandLayer(t *testing.T) {
	var mu sync.Mutex
	var got []Command
	control := func(c Command) { mu.Lock(); got = append(got, c); mu.Unlock() }
	run := func(m Model, ks ...string) {
		for _, k := range ks {
			nm, cmd := m.Update(keyMsg(k))
			m = nm.(Model)
			if cmd != nil {
				cmd()
			}
		}
	}
	m := New(Options{Mode: ModeRun, Control: control, Now: (&clock{now: t0}).Now})
	m = update(m, EventMsg{Event: session.TestStarted{Test: "t", Steps: []string{`--step-type CLICK --description "x"`, `--step-type ACT --description "goal"`}}})
	m = update(m, EventMsg{Event: session.TestFinished{Result: session.TestResult{Status: "passed"}}})
	run(m, "tab", "tab", "R", "down", "R", "g")
	m2 := New(Options{Mode: ModeNew, Control: control, Now: (&clock{now: t0}).Now})
	run(m2, "c", "l", "i", "c", "k", ":", " ", "b", "enter", "esc", "w")
	mu.Lock()
	defer mu.Unlock()
	want := []Command{RunAgain{Rerecord: 1}, AddStep{Line: "click: b"}, WriteTest{}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("commands %v, want %v", got, want)
	}
}

func TestModelErrorInTheStatusBar(t *testing.T) {
	m := sessionModel(t, 80, 24, ModeRun)
	m = update(m, EventMsg{Event: session.ModelCalled{Call: session.ModelCall{Purpose: "act", Outcome: "rate-limited"}}})
	if v := m.View(); !strings.Contains(v, "! model error (act): rate-limited") {
		t.Errorf("status bar:\n%s", v[strings.LastIndex(v[:len(v)-100], "\n"):])
	}
}
