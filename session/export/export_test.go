package export

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
)

func parse(t *testing.T, file, src string) *testfile.Test {
	t.Helper()
	tt, err := testfile.Parse(file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return tt
}

func role(r, name string) Target {
	return Target{Locator: browser.PWLocator{Kind: "role", Role: r, Name: name, Count: 1}, Cached: true}
}

func scoped(sr, text string, t Target) Target {
	t.Locator.Scope = &browser.PWScope{Role: sr, HasText: text}
	return t
}

func nth(i int) *int { return &i }

// The generated code of a few tests, reviewed by eye (go test -update
// rewrites the golden files): it reads like code a person wrote.
func TestSpecGolden(t *testing.T) {
	users, err := os.ReadFile("../../examples/users.e2e.yaml")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("users", func(t *testing.T) {
		tt := parse(t, "users.e2e.yaml", string(users))
		menu := func(who string) Target { return scoped("row", who, role("button", "Menu")) }
		row := func(who string) Target {
			return Target{Locator: browser.PWLocator{Kind: "role", Role: "row", HasText: who, Count: 1}, Cached: true}
		}
		steps := [][]Target{
			{menu("Alice")}, {role("menuitem", "Archive")}, {row("Alice")}, {role("status", "")},
			{menu("Bob")}, {role("menuitem", "Edit")}, {role("textbox", "Name")}, {role("button", "Save")}, {row("Robert")},
		}
		et := Test{Test: tt}
		for _, s := range steps {
			et.Steps = append(et.Steps, Step{Targets: s})
		}
		spec, err := Spec(et, Options{})
		if err != nil {
			t.Fatal(err)
		}
		golden.RequireEqual(t, spec)
	})

	t.Run("kinds", func(t *testing.T) {
		dir := t.TempDir()
		for _, f := range []string{"a.png", "b.png"} {
			if err := os.WriteFile(filepath.Join(dir, f), []byte("png"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		tt := parse(t, filepath.Join(dir, "kinds.e2e.yaml"), `name: every kind
url: /account
steps:
  - type: { into: the email field, text: "{{ env.E2E_USER }}" }
  - type: { into: the password field, text: "{{ secret.E2E_PASSWORD }}" }
  - type: { into: the project name field, text: "proj-{{ unique \"p\" }}" }
  - click: the blue button
  - dblclick: the bread label
  - rightclick: the file icon
  - hover: the avatar
  - uncheck: the Newsletter checkbox
  - select: { from: the Plan dropdown, option: Pro }
  - press: Escape
  - drag: { from: the first card, to: the Done column }
  - upload: { into: the Avatar field, files: [a.png, b.png] }
  - wait: 2s
  - wait: { for: the Saved toast }
    timeout: 8s
  - click: the Delete button in the eggs item
  - click: the second Remove button
  - act: archive the oldest project
  - act: invite a teammate
  - assert: the page looks like a receipt
  - expect: { value: { of: the email field, contains: "@example" } }
  - expect: { url: /projects/* }
  - expect: { url: { contains: tab=billing } }
  - expect: { title: Account }
  - expect: { text: { in: the greeting, is: "Hi {{ env.NAME }}!" } }
  - click: the Launch rocket button
  - scroll: { in: the Messages panel, to: the Archive button }
  - clear: the email field
  - select: { from: the Toppings list, add: Olives }
  - select: { from: the Toppings list, remove: "{{ env.E2E_TOPPING }}" }
  - dialog: dismiss
  - dialog: { accept: true, text: "{{ env.E2E_NAME }}" }
  - dialog: accept
  - expect: { dialog: Delete the draft? }
  - expect: { dialog: { contains: "new  name" } }
`)
		css := Target{Locator: browser.PWLocator{Kind: "css", Value: "span.icon-file", Count: 1,
			Reason: "no role, label, placeholder, test id or text names it alone; its class does"}, Cached: true}
		hover := scoped("listitem", "eggs", role("button", "Delete"))
		hover.Locator.Hover = true
		blue := role("button", "Add to cart")
		blue.Locator.Color = &browser.PWColor{Property: "background-color", Value: "rgb(29, 78, 216)"}
		remove := role("button", "Remove")
		remove.Locator.Nth = nth(1)
		located := role("textbox", "Email")
		located.Cached = false
		steps := []Step{
			{Targets: []Target{{Locator: browser.PWLocator{Kind: "label", Value: "Email", Count: 1}, Cached: true}}},
			{Targets: []Target{role("textbox", "Password")}},
			{Targets: []Target{{Locator: browser.PWLocator{Kind: "placeholder", Value: "Project name", Exact: true, Count: 1}, Cached: true}}},
			{Targets: []Target{blue}},
			{Targets: []Target{{Locator: browser.PWLocator{Kind: "text", Value: "bread", Exact: true, Count: 1}, Cached: true}}},
			{Targets: []Target{css}},
			{Targets: []Target{{Locator: browser.PWLocator{Kind: "testid", Attr: "data-testid", Value: "avatar", Count: 1}, Cached: true}}},
			{Targets: []Target{role("checkbox", "Newsletter")}},
			{Targets: []Target{role("combobox", "Plan")}},
			{},
			{Targets: []Target{role("listitem", "Card 1"), role("region", "Done")}},
			{Targets: []Target{{Locator: browser.PWLocator{Kind: "testid", Attr: "data-qa", Value: "avatar-input", Count: 1}, Cached: true}}},
			{},
			{Targets: []Target{role("status", "Saved")}},
			{Targets: []Target{hover}},
			{Targets: []Target{remove}},
			{Act: []ActStep{
				{Step: step.Step{Type: step.Click, Description: "the Sort by date button"}, Targets: []Target{role("button", "Sort by date")}},
				{Step: step.Step{Type: step.Click, Description: "the Archive button in the first row"}, Targets: []Target{scoped("row", "Apollo", role("button", "Archive"))}},
			}},
			{}, // an act never recorded
			{},
			{Targets: []Target{located}},
			{}, {}, {},
			{Targets: []Target{role("heading", "")}},
			{}, // never located: guessed
			{Targets: []Target{role("button", "Archive"), role("region", "Messages")}},
			{Targets: []Target{role("textbox", "Email")}},
			{Targets: []Target{role("listbox", "Toppings")}},
			{Targets: []Target{role("listbox", "Toppings")}},
			{}, {}, {}, {}, {},
		}
		spec, err := Spec(Test{Test: tt, Steps: steps}, Options{OutDir: filepath.Join(dir, "out")})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(spec), "waitForTimeout") {
			t.Error("a fixed wait became waitForTimeout")
		}
		golden.RequireEqual(t, spec)
	})
}

// TestSpecRequireRecorded: with RequireRecorded, every step with nothing
// recorded is an error at its line (an act with no trajectory, a step
// located only now, a step never found); recorded steps and steps with no
// element are not.
func TestSpecRequireRecorded(t *testing.T) {
	tt := parse(t, "r.e2e.yaml", `name: r
url: /
steps:
  - click: the Sign in button
  - press: Enter
  - act: archive the oldest project
  - click: the Save button
  - click: the Launch rocket button
  - scroll: { in: the Messages panel, to: the Archive button }
`)
	located := role("button", "Save")
	located.Cached = false
	_, err := Spec(Test{Test: tt, Steps: []Step{{Targets: []Target{role("button", "Sign in")}}, {}, {}, {Targets: []Target{located}}, {}}}, Options{RequireRecorded: true})
	var lines []int
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var nr *NotRecordedError
		if !errors.As(e, &nr) {
			t.Fatalf("%T %v", e, e)
		}
		lines = append(lines, nr.Line)
	}
	// Line 9, a scroll in a box, has nothing recorded for its box or its
	// element: not recorded either.
	if !slices.Equal(lines, []int{6, 7, 8, 9}) {
		t.Errorf("errors at lines %v, want 6, 7, 8, 9: %v", lines, err)
	}
}

// TestGuess: what a description suggests when nothing was recorded.
func TestGuess(t *testing.T) {
	for desc, want := range map[string]string{
		"the Sign in button":                 `page.getByRole('button', { name: 'Sign in' })`,
		"the email field":                    `page.getByLabel('email')`,
		"the Menu button in the Alice row":   `page.getByRole('row').filter({ hasText: 'Alice' }).getByRole('button', { name: 'Menu' })`,
		"the Alice row":                      `page.getByRole('row').filter({ hasText: 'Alice' })`,
		"the second Delete button":           `page.getByRole('button', { name: 'Delete' }).nth(1)`,
		`the "No file chosen" text`:          `page.getByText('No file chosen')`,
		"Archive":                            `page.getByText('Archive')`,
		"the Delete button in the eggs item": `page.getByRole('listitem').filter({ hasText: 'eggs' }).getByRole('button', { name: 'Delete' })`,
	} {
		if got := Locator(Guess(desc)); got != want {
			t.Errorf("%q: %s, want %s", desc, got, want)
		}
	}
}

// TestStringsKeepVariables: variables become process.env and unique(), never
// a value; literal text is escaped for TypeScript.
func TestStringsKeepVariables(t *testing.T) {
	w := &writer{}
	for in, want := range map[string]string{
		"plain":                  `'plain'`,
		`it's a \ test`:          `'it\'s a \\ test'`,
		"{{ secret.PASSWORD }}":  `process.env.PASSWORD!`,
		"Hi {{ env.NAME }}!":     "`Hi ${process.env.NAME}!`",
		"a `b` ${c} {{ env.X }}": "`a \\`b\\` \\${c} ${process.env.X}`",
		`{{ unique "team" }}`:    `unique('team')`,
		`{{ unique "t" | url }}`: `encodeURIComponent(unique('t'))`,
	} {
		if got := w.str(in); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
	if !w.usesUnique {
		t.Error("unique() used but not defined")
	}
}

func TestValidIdent(t *testing.T) {
	for s, want := range map[string]bool{"x": true, "_a1": true, "$el": true, "Abc9": true, "": false, "1a": false, "a-b": false, "a b": false, "é": false} {
		if got := validIdent(s); got != want {
			t.Errorf("validIdent(%q) = %v", s, got)
		}
	}
}

// TestLocatorThroughFrames: an element in frames is found from the page
// through each frame's contentFrame(), and so is the container it is
// chained under and hovered through.
func TestLocatorThroughFrames(t *testing.T) {
	frames := []string{`iframe[title="Checkout"]`, `iframe[name="card"]`}
	for _, c := range []struct {
		l    browser.PWLocator
		want string
	}{
		{browser.PWLocator{Kind: "label", Value: "Card number", Exact: true, Frames: frames[:1]},
			`page.locator('iframe[title="Checkout"]').contentFrame().getByLabel('Card number', { exact: true })`},
		{browser.PWLocator{Kind: "role", Role: "button", Name: "Pay", Frames: frames, Scope: &browser.PWScope{Role: "form", Name: "Card"}},
			`page.locator('iframe[title="Checkout"]').contentFrame().locator('iframe[name="card"]').contentFrame().getByRole('form', { name: 'Card', exact: true }).getByRole('button', { name: 'Pay' })`},
		{browser.PWLocator{Kind: "role", Role: "button", Name: "Pay"}, `page.getByRole('button', { name: 'Pay' })`},
	} {
		if got := Locator(c.l); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

// TestSpecSession: a test's session becomes a call of its flow's function
// at the spec's start, before the test's page, with the session's
// parameters (a secret as process.env, never its value); with nothing
// recorded for the flow's steps, RequireRecorded names them.
func TestSpecSession(t *testing.T) {
	flow, err := testfile.ParseFlow("sign-in.flow.yaml", []byte("name: sign in\nparams: [user, password]\nurl: /login\nsteps:\n"+
		"  - type: { into: the email field, text: \"{{ user }}\" }\n  - type: { into: the password field, text: \"{{ password }}\" }\n"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := testfile.ParseConfig("e2e.yaml", []byte("sessions:\n  signed in: { flow: sign in, with: { user: \"{{ env.E2E_USER }}\", password: \"{{ secret.E2E_PASSWORD }}\" }, check: { url: /account } }\n"))
	if err != nil {
		t.Fatal(err)
	}
	flows, _ := testfile.NewFlows([]*testfile.Flow{flow})
	if l := flows.LinkSessions(cfg); l != nil {
		t.Fatal(l)
	}
	tt := parse(t, "a.e2e.yaml", "name: a\nurl: /account\nsession: signed in\nsteps:\n  - click: the Save button\n")
	s := cfg.Session("signed in")
	recs := []*Step{{}, {Targets: []Target{role("textbox", "Email")}}, {Targets: []Target{role("textbox", "Password")}}}
	spec, err := Spec(Test{Test: tt, Steps: []Step{{Targets: []Target{role("button", "Save")}}}, Session: s, SessionFlow: recs}, Options{RequireRecorded: true})
	if err != nil {
		t.Fatal(err)
	}
	got := string(spec)
	for _, want := range []string{
		"test('a', async ({ page }) => {\n  await test.step('session signed in', async () => {\n" +
			"    await signIn(page, { user: process.env.E2E_USER!, password: process.env.E2E_PASSWORD! });\n  });\n  await page.goto('/account');\n",
		"async function signIn(page: Page, p: { user: string; password: string }) {",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the spec lacks %q:\n%s", want, got)
		}
	}
	if _, err := Spec(Test{Test: tt, Steps: []Step{{Targets: []Target{role("button", "Save")}}}, Session: s}, Options{RequireRecorded: true}); err == nil {
		t.Error("nothing recorded for the session's flow, and no error")
	}
}
