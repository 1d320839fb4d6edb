package browser

import (
	"github.com/e2e-dev/e2e/session/ax"
	"strings"
	"testing"
)

const pwPage = `<!doctype html><title>pw</title>
<main>
  <h1>Users</h1>
  <form>
    <label>Email <input name="email"></label>
    <input placeholder="Search people">
    <button type="submit">Sign in</button>
    <button type="button">Sign in with Google</button>
  </form>
  <table>
    <tr><td>Alice</td><td>admin</td><td><button>Menu</button></td></tr>
    <tr><td>Bob</td><td>admin</td><td><button>Menu</button></td></tr>
  </table>
  <div><button>Delete</button></div>
  <div><button>Delete</button></div>
  <div class="css-9f8e7d1" id="x7f3a9c2" onclick="1"></div>
  <div data-testid="promo-banner" onclick="1"></div>
  <button data-testid="save-profile">Save</button>
  <button>Save</button>
  <button hidden>Sign in</button>
  <table id="team">
    <tr><td>Ann Leeds</td><td>Editor</td><td>ann.leeds@example.com</td></tr>
    <tr><td>Ann Lee</td><td>Editor</td><td>ann.lee@example.com</td></tr>
  </table>
  <style>li .destroy { display: none } li:hover .destroy { display: inline }</style>
  <ul><li>eggs <button class="destroy" aria-label="Delete"></button></li><li>milk <button class="destroy" aria-label="Delete"></button></li></ul>
</main>`

// TestPlaywrightLocatorPrefersRoleAndStaysUnique: the locator chosen for
// each element is Playwright's first choice that finds it alone (a role
// and name, exact only when a longer name would match too; a test id when
// names repeat), chains under the row
// the description names, and falls back to an ordinal or a structural path
// only with a reason, never to random ids or classes.
func TestPlaywrightLocatorPrefersRoleAndStaysUnique(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, pwPage))
	ctx := ctxT(t)
	snap, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	refs := map[string][]string{} // role+name → refs in order
	var generic []string
	snap.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Ref != "" {
			refs[n.Role+" "+n.Name] = append(refs[n.Role+" "+n.Name], n.Ref)
			if n.Role == "generic" {
				generic = append(generic, n.Ref)
			}
		}
		return true
	})
	one := func(key string, i int) string {
		t.Helper()
		if len(refs[key]) <= i {
			t.Fatalf("no %d. %q in the snapshot: %v", i+1, key, refs)
		}
		return refs[key][i]
	}
	nth := func(i int) *int { return &i }
	for _, c := range []struct {
		what string
		ref  string
		hint PWHint
		want string // the locator, rendered
	}{
		{"a named button (a hidden twin does not count; a longer name keeps it exact)", one("button Sign in", 0), PWHint{}, `role button "Sign in" exact`},
		{"a labelled field", one("textbox Email", 0), PWHint{}, `role textbox "Email"`},
		{"a field named by its placeholder", one("textbox Search people", 0), PWHint{}, `role textbox "Search people"`},
		{"the Menu button in the Bob row", one("button Menu", 1), PWHint{ScopeRole: "row", ScopeText: "Bob"}, `row hasText "Bob" > role button "Menu"`},
		{"a repeated Menu button with no hint: its row tells it apart", one("button Menu", 0), PWHint{}, `row hasText "Alice" > role button "Menu"`},
		{"a row the description names wrongly is not used", one("button Menu", 0), PWHint{ScopeRole: "row", ScopeText: "Bob"}, `row hasText "Alice" > role button "Menu"`},
		{"the second Delete button: an ordinal", one("button Delete", 1), PWHint{Nth: nth(1)}, `role button "Delete" exact nth 1`},
		{"a Save button with a test id beside a plain Save", one("button Save", 0), PWHint{}, `testid data-testid "save-profile"`},
		{"the plain Save button", one("button Save", 1), PWHint{}, `role button "Save" exact nth 1`},
		{"a role-less clickable with a test id", generic[1], PWHint{}, `testid data-testid "promo-banner"`},
		{"a Delete button shown on hover, in the eggs item", one("button Delete", 2), PWHint{ScopeRole: "listitem", ScopeText: "eggs"}, `listitem hasText "eggs" > role button "Delete" hover`},
		{"the one in the milk item, with no hint", one("button Delete", 3), PWHint{}, `listitem hasText "milk" > role button "Delete" hover`},
	} {
		got, err := p.PlaywrightLocator(ctx, c.ref, c.hint, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		if r := render(got); r != c.want {
			t.Errorf("%s: %s (%+v), want %s", c.what, r, got, c.want)
		}
		if got.Nth == nil && got.Count != 1 {
			t.Errorf("%s: %d matches without an ordinal", c.what, got.Count)
		}
	}

	// Near misses among rows: "Ann Lee" is in the Ann Leeds row too, and a
	// row is not known by the text the step expects in it.
	var annLee, annLeeds string
	snap.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "row" && strings.HasPrefix(n.Name, "Ann Lee ") {
			annLee = n.Ref
		}
		if n.Role == "row" && strings.HasPrefix(n.Name, "Ann Leeds") {
			annLeeds = n.Ref
		}
		return true
	})
	if annLee == "" || annLeeds == "" {
		t.Fatalf("no refs for the Ann Lee and Ann Leeds rows: %v", refs)
	}
	for _, c := range []struct {
		what, ref string
		hint      PWHint
		want      string
	}{
		{"the Ann Leeds row", annLeeds, PWHint{}, `role row hasText "Ann Leeds"`},
		{"the Ann Lee row (its name is in the Ann Leeds row too)", annLee, PWHint{}, `role row hasText "ann.lee@example.com"`},
		{"the Ann Leeds row, checked for the text Ann Leeds", annLeeds, PWHint{NoText: true, Avoid: "Ann Leeds"}, `role row hasText "ann.leeds@example.com"`},
	} {
		got, err := p.PlaywrightLocator(ctx, c.ref, c.hint, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r := render(got); r != c.want {
			t.Errorf("%s: %s, want %s", c.what, r, c.want)
		}
	}

	// A clickable with only a random id and class: a structural path, with
	// a reason, and neither the id nor the class in it.
	got, err := p.PlaywrightLocator(ctx, generic[0], PWHint{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Kind != "css" || got.Reason == "" || strings.Contains(got.Value, "x7f3a9c2") || strings.Contains(got.Value, "css-9f8e7d1") || got.Count != 1 {
		t.Errorf("random id and class: %+v, want a structural CSS path with a reason", got)
	}
	// Banned attributes are not used: the test id goes, a path comes.
	got, err = p.PlaywrightLocator(ctx, generic[1], PWHint{}, []string{"data-testid"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Kind != "css" || strings.Contains(got.Value, "promo-banner") {
		t.Errorf("banned data-testid: %+v, want no test id", got)
	}
}

// render writes l on one line for comparison.
func render(l PWLocator) string {
	var b strings.Builder
	if l.Scope != nil {
		b.WriteString(l.Scope.Role)
		if l.Scope.Name != "" {
			b.WriteString(" name " + strconvQ(l.Scope.Name))
		}
		if l.Scope.HasText != "" {
			b.WriteString(" hasText " + strconvQ(l.Scope.HasText))
		}
		b.WriteString(" > ")
	}
	switch l.Kind {
	case "role":
		b.WriteString("role " + l.Role)
		if l.Name != "" {
			b.WriteString(" " + strconvQ(l.Name))
		}
		if l.HasText != "" {
			b.WriteString(" hasText " + strconvQ(l.HasText))
		}
		if l.Exact {
			b.WriteString(" exact")
		}
	case "testid":
		b.WriteString("testid " + l.Attr + " " + strconvQ(l.Value))
	default:
		b.WriteString(l.Kind + " " + strconvQ(l.Value))
	}
	if l.Hover {
		b.WriteString(" hover")
	}
	if l.Nth != nil {
		b.WriteString(" nth " + string(rune('0'+*l.Nth)))
	}
	return b.String()
}

func strconvQ(s string) string { return `"` + s + `"` }

const pwShadowPage = `<!doctype html><title>shadow</title>
<button>Open</button>
<share-card></share-card>
<script>
customElements.define('share-card', class extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).innerHTML = '<button>Open</button><button>Share</button><input aria-label="Note">';
  }
});
</script>`

// TestPlaywrightLocatorInShadowRoots: Playwright's locators pierce open
// shadow roots, so candidates are counted across them: a Share button in a
// shadow root is found by its role and name, but an Open button there has a
// twin outside and no ordinal or text is used to tell them apart (they are
// counted differently across the boundary): it fails instead.
func TestPlaywrightLocatorInShadowRoots(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, pwShadowPage))
	ctx := ctxT(t)
	snap, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var opens []string
	snap.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "button" && n.Name == "Open" {
			opens = append(opens, n.Ref)
		}
		return true
	})
	if len(opens) != 2 {
		t.Fatalf("%d Open buttons in the snapshot, want 2", len(opens))
	}
	for _, c := range []struct{ what, ref, want string }{
		{"the Share button in the shadow root", refByName(t, snap, "button", "Share"), `role button "Share"`},
		{"the Note field in the shadow root", refByName(t, snap, "textbox", "Note"), `role textbox "Note"`},
	} {
		got, err := p.PlaywrightLocator(ctx, c.ref, PWHint{}, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		if r := render(got); r != c.want {
			t.Errorf("%s: %s, want %s", c.what, r, c.want)
		}
	}
	// The light-DOM Open button: its name matches the shadow one too.
	got, err := p.PlaywrightLocator(ctx, opens[0], PWHint{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Kind == "role" && got.Nth == nil && got.Scope == nil {
		t.Errorf("the light Open button: %s, but a shadow twin has that role and name", render(got))
	}
	if _, err := p.PlaywrightLocator(ctx, opens[1], PWHint{}, nil); err == nil || !strings.Contains(err.Error(), "shadow root") {
		t.Errorf("the shadow Open button: %v, want an error saying it is in a shadow root", err)
	}
}

const pwFramePage = `<!doctype html><title>frames</title>
<main>
  <h1>Checkout</h1>
  <button>Pay</button>
  <iframe title="Payment" srcdoc="<label>Card number <input></label><button>Pay</button><button>Pay</button>"></iframe>
  <iframe name="ads" srcdoc="<button>Pay</button>"></iframe>
  <iframe title="Outer" srcdoc="<iframe title='Inner' srcdoc='<button>Deep</button>'></iframe>"></iframe>
  <iframe srcdoc="<button>Lost</button>"></iframe>
  <iframe srcdoc="<button>Lost</button>"></iframe>
</main>`

// TestPlaywrightLocatorInFrames: an element inside a frame is given the
// frames from the top down, each by a selector that finds it alone (title,
// then name), and its own locator counted in its frame's document only, as
// Playwright's contentFrame() resolves it: the page's own Pay button and
// the other frames' do not make a frame's Pay button ambiguous, and two Pay
// buttons in one frame are told apart by an ordinal there. A frame nothing
// names alone gets no locator (an error), never one of its twin's.
func TestPlaywrightLocatorInFrames(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, pwFramePage))
	ctx := ctxT(t)
	snap, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var pays, lost []string
	snap.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "button" && n.Name == "Pay" {
			pays = append(pays, n.Ref)
		}
		if n.Role == "button" && n.Name == "Lost" {
			lost = append(lost, n.Ref)
		}
		return true
	})
	if len(pays) != 4 || len(lost) != 2 {
		t.Fatalf("%d Pay and %d Lost buttons in the snapshot, want 4 and 2:\n%s", len(pays), len(lost), snap.Text(ax.TextOptions{}))
	}
	for _, c := range []struct {
		what, ref, want string
		frames          []string
	}{
		{"the page's Pay button", pays[0], `role button "Pay"`, nil},
		{"the Card number field", refByName(t, snap, "textbox", "Card number"), `role textbox "Card number"`, []string{`iframe[title="Payment"]`}},
		{"the first Pay button of Payment", pays[1], `role button "Pay" exact nth 0`, []string{`iframe[title="Payment"]`}},
		{"the second Pay button of Payment", pays[2], `role button "Pay" exact nth 1`, []string{`iframe[title="Payment"]`}},
		{"the ads frame's Pay button", pays[3], `role button "Pay"`, []string{`iframe[name="ads"]`}},
		{"the Deep button", refByName(t, snap, "button", "Deep"), `role button "Deep"`, []string{`iframe[title="Outer"]`, `iframe[title="Inner"]`}},
	} {
		got, err := p.PlaywrightLocator(ctx, c.ref, PWHint{}, nil)
		if err != nil {
			t.Errorf("%s: %v", c.what, err)
			continue
		}
		if r := render(got); !strings.HasPrefix(r, c.want) || strings.Join(got.Frames, " > ") != strings.Join(c.frames, " > ") {
			t.Errorf("%s: %s in %q, want %s in %q", c.what, r, got.Frames, c.want, c.frames)
		}
	}
	for _, ref := range lost {
		if got, err := p.PlaywrightLocator(ctx, ref, PWHint{}, nil); err == nil || !strings.Contains(err.Error(), "inside a frame that nothing names alone") {
			t.Errorf("a Lost button in an unnamed twin frame: %s in %q, %v; want an error", render(got), got.Frames, err)
		}
	}
}
