package browser

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/locate"
)

// firstText is the first text run under n.
func firstText(n *ax.Node) *ax.Node {
	for _, c := range n.Children {
		if c.Role == "text" {
			return c
		}
	}
	return nil
}

// checkCut checks that s is a cut of a string of whole characters long,
// kept to at most limit code units, on a word boundary of "word" runs.
func checkCut(t *testing.T, what, s string, whole, limit int) {
	t.Helper()
	kept, more, ok := ax.CutPrefix(s)
	if !ok {
		t.Fatalf("%s is not cut: %d bytes, ends %q", what, len(s), s[max(0, len(s)-40):])
	}
	if len(kept) > limit || len(kept) < limit-40 {
		t.Errorf("%s: kept %d characters, want about %d", what, len(kept), limit)
	}
	if len(kept)+more != whole {
		t.Errorf("%s: kept %d + %d more = %d, want %d", what, len(kept), more, len(kept)+more, whole)
	}
	if !strings.HasSuffix(kept, "word") {
		t.Errorf("%s: cut inside a word: ends %q", what, kept[len(kept)-10:])
	}
}

func TestSnapshotCutsAHugeParagraph(t *testing.T) {
	p := newPage(t)
	// 20 MB of text in a paragraph and a button's name, 1 MB in a field's
	// value. Chrome takes half a minute to lay out 20 MB of text, which
	// content-visibility spares it; the snapshot reads the DOM all the same.
	open(t, p, serveHTML(t, `<p id=p style="content-visibility:hidden"></p>
<button><span id=b style="display:inline-block;content-visibility:hidden"></span></button>
<input id=i aria-label="Huge field">
<script>
const s = 'word '.repeat(4e6);
document.getElementById('p').textContent = s;
document.getElementById('b').textContent = 'Go ' + s;
document.getElementById('i').value = s.slice(0, 1e6);
</script>`))
	s := snap(t, p, SnapshotOptions{})
	out := s.Text(ax.TextOptions{})
	if len(out) > 64<<10 {
		t.Fatalf("the outline has %d bytes; want it bounded by the text caps", len(out))
	}
	const whole = 4000000*5 - 1 // the trailing space is trimmed
	var para, button, field *ax.Node
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		switch n.Role {
		case "paragraph":
			para = n
		case "button":
			button = n
		case "textbox":
			field = n
		}
		return true
	})
	if para == nil || button == nil || field == nil {
		t.Fatalf("paragraph, button or field missing:\n%.2000s", out)
	}
	txt := firstText(para)
	if txt == nil || !txt.Cut {
		t.Fatalf("the paragraph's text is not marked cut: %+v", txt)
	}
	checkCut(t, "paragraph text", txt.Text, whole, DefaultMaxText)
	if !button.Cut || !strings.HasPrefix(button.Name, "Go word word") {
		t.Fatalf("button: cut %v, name %.40q", button.Cut, button.Name)
	}
	checkCut(t, "button name", button.Name, whole+3, DefaultMaxText)
	if len(button.Children) != 0 {
		t.Errorf("the button's text is repeated under it (%d children)", len(button.Children))
	}
	if !field.Cut {
		t.Error("the field is not marked cut")
	}
	checkCut(t, "field value", field.States.Value, 1e6-1, DefaultMaxText)
	if !strings.Contains(out, " more characters") {
		t.Error("the outline does not say how much was cut")
	}

	// The caps are options.
	s = snap(t, p, SnapshotOptions{MaxText: 100})
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "text" && strings.HasPrefix(n.Text, "word") {
			checkCut(t, "text cut at 100", n.Text, whole, 100)
		}
		return true
	})
}

func TestSnapshotTextBudgetHolds(t *testing.T) {
	p := newPage(t)
	// 300 paragraphs of 100 KB each: 30 MB, far more than the budget even
	// once each is cut to DefaultMaxText (content-visibility spares Chrome
	// laying them out)
	open(t, p, serveHTML(t, `<body><div style="content-visibility:hidden"></div><script>
const s = 'word '.repeat(2e4), w = document.querySelector('div');
for (let i = 0; i < 300; i++) { const e = document.createElement('p'); e.textContent = s; w.appendChild(e); }
</script>`))
	s := snap(t, p, SnapshotOptions{})
	const whole = 20000*5 - 1
	var kept, cutByNode, paras int
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role != "text" {
			return true
		}
		paras++
		k, more, ok := ax.CutPrefix(n.Text)
		if !ok || !n.Cut {
			t.Fatalf("paragraph %d: text not cut (%d bytes)", paras, len(n.Text))
		}
		if len(k)+more != whole {
			t.Fatalf("paragraph %d: kept %d + %d more, want %d in all", paras, len(k), more, whole)
		}
		if paras == 1 {
			cutByNode = len(k)
		}
		kept += len(k)
		return true
	})
	if paras != 300 {
		t.Fatalf("%d paragraphs in the snapshot, want 300", paras)
	}
	if kept > DefaultMaxTotalText || kept < DefaultMaxTotalText-DefaultMaxText {
		t.Errorf("the snapshot kept %d characters of text, want just under the budget %d", kept, DefaultMaxTotalText)
	}
	if want := 300*cutByNode - kept; s.TextMore != want || s.TextCap != DefaultMaxTotalText {
		t.Errorf("TextMore %d, TextCap %d; want %d, %d", s.TextMore, s.TextCap, want, DefaultMaxTotalText)
	}
	out := s.Text(ax.TextOptions{})
	if len(out) > DefaultMaxTotalText+300*64 {
		t.Errorf("the outline has %d bytes", len(out))
	}
	if !strings.HasSuffix(out, " more characters (snapshot text capped at 1048576 characters; scope to a ref to see them)\n") {
		t.Errorf("the outline does not end with what the budget left out: %q", out[max(0, len(out)-200):])
	}
	s = snap(t, p, SnapshotOptions{MaxTotalText: -1})
	if s.TextMore != 0 {
		t.Errorf("no budget: TextMore %d", s.TextMore)
	}
}

func TestSnapshotOf2000NestedShadowRoots(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, `<body><script>
let root = document.body;
for (let i = 0; i < 2000; i++) { const d = document.createElement('x-level'); root.appendChild(d); root = d.attachShadow({ mode: 'open' }); }
const b = document.createElement('button');
b.textContent = 'Deep button';
b.setAttribute('data-testid', 'deep');
root.appendChild(b);
</script>`))
	s := snap(t, p, SnapshotOptions{})
	btn := find(t, s, "button", "Deep button")
	sels, node, err := p.CaptureElement(ctxT(t), btn.Ref, nil)
	if err != nil {
		t.Fatal(err)
	}
	if node.Name != "Deep button" {
		t.Errorf("captured name %q", node.Name)
	}
	r, err := p.ResolveCached(ctxT(t), sels)
	if err != nil {
		t.Fatal(err)
	}
	if r.Ref != btn.Ref {
		t.Errorf("cached selectors found %q (%s), want %s", r.Ref, r.Reason, btn.Ref)
	}
}

func TestSnapshotOf10000NestedElements(t *testing.T) {
	p := newPage(t)
	// The HTML parser stops nesting at 512, so the page nests by script:
	// 10,000 divs inside a link (named from that content), and 10,000 spans
	// in a hidden element that names a field and a button. Chrome's own
	// layout overflows its stack at about 3,000 nested boxes, so the divs
	// make no boxes (display: contents); the DOM is as deep.
	open(t, p, serveHTML(t, `<body><style>div { display: contents }</style><script>
function nest(tag, n, inner) {
  const top = document.createElement(tag);
  let e = top;
  for (let i = 1; i < n; i++) { const c = document.createElement(tag); e.appendChild(c); e = c; }
  e.append(inner);
  return top;
}
const link = document.createElement('a');
link.href = '#bottom';
link.appendChild(nest('div', 10000, 'Deep link'));
document.body.appendChild(link);
const label = nest('span', 10000, 'Deep label');
label.id = 'l';
label.hidden = true;
document.body.appendChild(label);
document.body.insertAdjacentHTML('beforeend', '<input aria-labelledby=l><button aria-labelledby=l>x</button>');
</script>`))
	// A snapshot of 20,000 nested elements takes seconds on a loaded
	// machine: a bound of its own, generous, instead of ctxT's.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	find(t, s, "link", "Deep link")
	find(t, s, "textbox", "Deep label")
	btn := find(t, s, "button", "Deep label")
	_, node, err := p.CaptureElement(ctx, btn.Ref, nil)
	if err != nil {
		t.Fatal(err)
	}
	if node.Name != "Deep label" {
		t.Errorf("captured name %q", node.Name)
	}
	if err := p.Click(ctx, btn.Ref, ActOptions{}); err != nil {
		t.Fatal(err)
	}
}

// A name the text cap cut must never give the locator a match the whole
// name would not: not an exact one from the part kept, not one from a word
// the cut split, not one from the marker.
func TestCutNamesNeverMatchBetterThanWholeNames(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, `<button id=long></button><button>Save</button><button id=word></button>
<script>
document.getElementById('long').textContent = 'Save ' + 'x '.repeat(5000);
document.getElementById('word').textContent = 'a'.repeat(5000);
</script>`))
	s := snap(t, p, SnapshotOptions{})
	var long, word *ax.Node
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "button" && strings.HasPrefix(n.Name, "Save x") {
			long = n
		}
		if n.Role == "button" && strings.HasPrefix(n.Name, "aaa") {
			word = n
		}
		return true
	})
	if long == nil || word == nil || !long.Cut || !word.Cut {
		t.Fatalf("the long names are not cut: %v %v", long, word)
	}
	save := find(t, s, "button", "Save")
	if r := locate.Locate(s, "the Save button"); r.Target == nil || r.Target.Node != save {
		t.Errorf("the Save button: %s %s", r.Reason, r.Detail)
	}
	wordKept, _, _ := ax.CutPrefix(word.Name)
	for _, d := range []string{
		// the part kept of a word the cut split is not the word
		"the " + wordKept + " button",
		`the "` + wordKept + `" button`,
		// the name as the outline prints it, marker and all
		`the "` + long.Name + `" button`,
		"the " + long.Name + " button",
		`the "` + word.Name + `" button`,
	} {
		r := locate.Locate(s, d)
		if r.Target == nil {
			continue
		}
		why := strings.Join(r.Target.Why, "; ")
		if strings.Contains(why, "exact") || strings.Contains(why, "same words") || r.Target.Node == word {
			t.Errorf("%.60q… found %.40s by a cut name: %.200s", d, r.Target.Node.Line(), why)
		}
	}
}
