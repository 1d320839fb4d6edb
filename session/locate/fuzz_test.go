package locate

import (
	"fmt"
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
)

// fuzzPage has a bit of every fixture page: rows with menus, coloured
// buttons, fields with boxes, a dialog, options and a status.
func fuzzPage() *ax.Snapshot {
	u := usersPage(shuffled(), "Alice")
	p := productPage(false)
	b := bookingPage()
	l := loginPage()
	main := el("main", "", kids(
		el("region", "Users", kids(u.Root[1].Children...)),
		el("region", "Product", kids(p.Root[1].Children...)),
		el("region", "Booking", kids(b.Root[1].Children...)),
		el("dialog", "Sign in", kids(l.Root[1].Children...)),
	))
	return snap(banner(), main)
}

var fuzzSeeds = []string{
	"the Menu button in the Alice row", "Archive in the row menu", "the blue button", "the Add to cart button",
	"the second Delete button", "the Delete button", "the email field", "the Sign in button", "the password field",
	"the Cabin class dropdown", "the One way radio", "the Users heading", "the Alice row", "the From field",
	"the button next to the Departure date field", "the field above the Departure date field",
	`the "Save" button`, "the button labeled 'Buy now'", "the last option", "the First option", "#3",
	// punctuation the locator reads as no word ("#") must not fail the replay check of what it found
	"# 0 0 0 0", "# 0",
	"the row with the Archive menu item", "the Menu button for Bob", "the Menu button in the second row",
	"the cart status", "the OK button in the cookie banner", "in in in", "the the the", "\"", "'", "“x",
	"the left of", "next to next to", "the second to last", "with with", "the 0th button", "#0", "#-1",
	"the 99999999999999999999th button", "the light", "blue-colored", "-colored", "the Menu in the in the row",
	"the button labeled", "labeled", "the button with the text", "Save for later", "under the Users heading",
	"click the Menu button in the Alice row", "click on", "type into the email field", "select the", "Open menu",
	"the login button above the sign up button", "double click the Sign in", "click the Alice row",
}

func FuzzLocate(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	s := fuzzPage()
	f.Fuzz(func(t *testing.T, desc string) {
		r := Locate(s, desc)
		if len(r.Candidates) > maxCandidates {
			t.Fatalf("%q: %d candidates", desc, len(r.Candidates))
		}
		if r.Target == nil {
			if r.Reason != ReasonNoMatch && r.Reason != ReasonAmbiguous {
				t.Fatalf("%q: no target, reason %q", desc, r.Reason)
			}
			if r.Reason == ReasonAmbiguous && len(r.Candidates) < 2 {
				t.Fatalf("%q: ambiguous with %d candidates", desc, len(r.Candidates))
			}
			return
		}
		if r.Reason != "" || len(r.Candidates) == 0 || r.Candidates[0].Node != r.Target.Node {
			t.Fatalf("%q: target %s, reason %q, first candidate %v", desc, label(r.Target), r.Reason, r.Candidates)
		}
		if r.Target.Node.Ref == "" || r.Intent.Attributes["role"] != r.Target.Node.Role {
			t.Fatalf("%q: target %s, intent %+v", desc, label(r.Target), r.Intent)
		}
		// What a description relied on holds for what it found.
		if ok, why := Check(s, r.Target.Node, r.Target.Ancestors, r.Intent); !ok {
			t.Fatalf("%q: Check on its own target %s: %s (intent %+v)", desc, label(r.Target), why, r.Intent)
		}
	})
}

// twoThousandRows is the /rows?n=2000 page.
func twoThousandRows() *ax.Snapshot { return rowsPage(2000) }

func BenchmarkLocate2kRows(b *testing.B) {
	s := twoThousandRows()
	const desc = "the Delete button in the Item 1500 row"
	r := Locate(s, desc)
	if r.Target == nil || rowOf(r.Target.Ancestors).Name != fmt.Sprintf("Item 1500 SKU-01500 %d Delete", 1500*37%500) {
		b.Fatalf("%s: %s %s", desc, label(r.Target), r.Detail)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Locate(s, desc)
	}
}

func BenchmarkLocate2kRowsAmbiguous(b *testing.B) {
	s := twoThousandRows()
	b.ReportAllocs()
	for b.Loop() {
		Locate(s, "the Delete button")
	}
}

func BenchmarkCheck2kRows(b *testing.B) {
	s := twoThousandRows()
	r := Locate(s, "the Delete button in the Item 1500 row")
	b.ReportAllocs()
	for b.Loop() {
		if ok, why := Check(s, r.Target.Node, r.Target.Ancestors, r.Intent); !ok {
			b.Fatal(why)
		}
	}
}

func TestLocate2kRows(t *testing.T) {
	s := twoThousandRows()
	for _, tt := range []struct{ desc, row string }{
		{"the Delete button in the Item 1500 row", "Item 1500 "},
		{"the Delete button in the Item 1 row", "Item 1 "},
		{"the Delete button in the Item 150 row", "Item 150 "},
		{"the 1500th Delete button", "Item 1500 "},
		{"the last Delete button", "Item 2000 "},
	} {
		r := Locate(s, tt.desc)
		if r.Target == nil || rowOf(r.Target.Ancestors) == nil || rowOf(r.Target.Ancestors).Name[:len(tt.row)] != tt.row {
			t.Errorf("%s: %s (%s)", tt.desc, label(r.Target), r.Detail)
		}
	}
	if r := Locate(s, "the Delete button"); r.Reason != ReasonAmbiguous || len(r.Candidates) != 5 || r.Detail[:5] != "2000 " {
		t.Errorf("ambiguous: %q %d %q", r.Reason, len(r.Candidates), r.Detail)
	}
}
