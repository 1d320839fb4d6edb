package mcp

import (
	"strings"
	"testing"
)

func TestFromCommand(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`--step-type CLICK --description "the Add to cart button"`, `click: "the Add to cart button"`},
		{`--step-type TYPE --description "the Email field" --value "a: b"`, `type: { into: "the Email field", text: "a: b" }`},
		{`--step-type SELECT --description "the Cabin class dropdown" --value Business`, `select: { from: "the Cabin class dropdown", option: "Business" }`},
		{`--step-type NAVIGATE --value /login`, `navigate: "/login"`},
		{`--step-type CLEAR --description "the Email field"`, `clear: "the Email field"`},
		{`--step-type ACCEPT --value "Ann"`, `dialog: { accept: true, text: "Ann" }`},
		{`--step-type ADDOPTION --description "the Toppings list" --value Olives`, `select: { from: "the Toppings list", add: "Olives" }`},
		{`--step-type REMOVEOPTION --description "the Toppings list" --value Ham`, `select: { from: "the Toppings list", remove: "Ham" }`},
		{`--step-type ACT --description "put the shoe in the cart"`, `act: "put the shoe in the cart"`},
		{`--step-type SCROLL --description "the footer"`, `scroll: "the footer"`},
		{`--step-type SCROLL --description "the Archive button" --value "the Messages panel"`, `scroll: { in: "the Messages panel", to: "the Archive button" }`},
	} {
		got, st, err := fromCommand(c.in)
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.in, got, err, c.want)
			continue
		}
		if st.Description == "" && st.Value == "" {
			t.Errorf("%s: empty step", c.in)
		}
	}
	for in, want := range map[string]string{`--step-type DISMISS`: "dialog: dismiss", `--step-type ACCEPT`: "dialog: accept"} {
		if got, _, err := fromCommand(in); err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{
		`--step-type EXPECT --expect text --description "the cart status" --value "Cart: 1 item"`, // written in its own form
		`--step-type CLICK --description "the button" --timeout 5s`,
		`--step-type CLIK --description x`,
	} {
		if got, _, err := fromCommand(in); err == nil {
			t.Errorf("%s: took it as %q", in, got)
		} else if strings.Contains(in, "EXPECT") && !strings.Contains(err.Error(), "test-file form") {
			t.Errorf("%s: %v", in, err)
		}
	}
}
