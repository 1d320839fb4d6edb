package locate

// roleDef is what a role word in a description means: the snapshot roles it
// names (strong), roles people loosely call by the same word (weak: a
// "button" that is really a link), whether things can be "in" it, and for
// h1…h6 the heading level.
type roleDef struct {
	word      string
	strong    []string
	weak      []string
	container bool
	level     int
	// menuEntry says text in a menu with no menu item role of its own (an
	// <li> or a <div> in a role=menu list, its role on the wrapper) fits
	// the word loosely: see index.menuEntry.
	menuEntry bool
	// entry says the word names one entry of a collection (a card): a
	// region or group that holds an article or an item is the collection,
	// never the entry (see index.holdsEntries).
	entry bool
	// clickable says a role-less clickable (see clickable.go) not drawn as
	// a control fits the word loosely; looks, which drawings of a control
	// fit it ("checkbox" for the checkbox words).
	clickable bool
	looks     []string
}

// clickables are roles people call a button or a link without much care.
var clickables = []string{"button", "link", "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "switch", "treeitem"}

func without(list []string, drop string) []string {
	var out []string
	for _, s := range list {
		if s != drop {
			out = append(out, s)
		}
	}
	return out
}

// roleWords maps a lower-case role word or phrase (words separated by one
// space) to its meaning. Phrases of up to three words are looked up longest
// first, so "radio button" is a radio and never a button.
var roleWords = map[string]roleDef{}

func addRole(words []string, d roleDef) {
	for _, w := range words {
		d.word = w
		roleWords[w] = d
	}
}

func init() {
	field := []string{"textbox", "searchbox", "combobox"}
	addRole([]string{"button", "btn", "icon button", "push button"},
		roleDef{strong: []string{"button"}, weak: append(without(clickables, "button"), "generic"), clickable: true})
	addRole([]string{"link", "hyperlink", "anchor"},
		roleDef{strong: []string{"link"}, weak: without(clickables, "link"), clickable: true})
	addRole([]string{"box"}, roleDef{strong: field, weak: []string{"spinbutton", "checkbox"}})
	addRole([]string{"field", "input", "textbox", "text box", "text field", "text input", "input field",
		"input box", "textarea", "text area", "edit box", "entry field", "searchbox"},
		roleDef{strong: field, weak: []string{"spinbutton"}})
	addRole([]string{"number field", "number input", "spinbutton", "spin button", "stepper"},
		roleDef{strong: []string{"spinbutton"}, weak: field})
	addRole([]string{"checkbox", "check box", "tickbox", "tick box"},
		roleDef{strong: []string{"checkbox"}, weak: []string{"switch", "menuitemcheckbox"}, looks: []string{"checkbox", "switch"}})
	addRole([]string{"radio", "radio button", "radiobutton", "option button", "radio option"},
		roleDef{strong: []string{"radio"}, weak: []string{"menuitemradio"}})
	addRole([]string{"dropdown", "drop-down", "drop down", "select", "select box", "selectbox", "combobox", "combo box",
		"picker", "listbox", "list box", "dropdown list", "drop-down list", "dropdown menu", "drop-down menu", "chooser"},
		roleDef{strong: []string{"combobox", "listbox"}, weak: []string{"button"}, container: true})
	addRole([]string{"tab"}, roleDef{strong: []string{"tab"}, weak: []string{"link", "button"}, clickable: true})
	// Words people use for a control by what it does in the UI, not by
	// its role: a filter is a link, button, tab or radio ("the Completed
	// filter"); a chip or pill a small button or link. They keep a trailing
	// noun from diluting the name.
	// (No "filter button": "the Apply filter button" is a button named
	// "Apply filter".)
	addRole([]string{"filter"},
		roleDef{strong: []string{"link", "button", "tab", "radio", "option"},
			// A clickable span reads as text. Never a checkbox: "the All
			// filter" is not a "Mark all as complete" toggle known by its
			// class words.
			weak: []string{"generic", "text", "menuitemradio"}, clickable: true})
	addRole([]string{"chip", "pill", "tag"},
		roleDef{strong: []string{"button", "link", "option"}, weak: []string{"checkbox", "listitem", "text"}, clickable: true})
	// A file input is a button to the accessibility tree; people call it
	// an upload or a file picker.
	addRole([]string{"upload", "file input", "file picker", "file field", "file upload", "file chooser",
		"file selector", "uploader", "dropzone", "drop zone"},
		roleDef{strong: []string{"button"}, weak: []string{"textbox", "generic", "link"}})
	addRole([]string{"heading", "title", "headline", "subheading", "subtitle"}, roleDef{strong: []string{"heading"}, container: true})
	for i, h := range []string{"h1", "h2", "h3", "h4", "h5", "h6"} {
		addRole([]string{h}, roleDef{strong: []string{"heading"}, container: true, level: i + 1})
	}
	addRole([]string{"row", "table row", "line item"}, roleDef{strong: []string{"row"}, weak: []string{"item"}, container: true})
	addRole([]string{"cell", "table cell", "grid cell"},
		roleDef{strong: []string{"cell", "gridcell"}, weak: []string{"rowheader", "columnheader"}, container: true})
	addRole([]string{"column header", "column heading", "columnheader", "header cell"},
		roleDef{strong: []string{"columnheader"}, weak: []string{"cell", "gridcell"}, container: true, clickable: true})
	addRole([]string{"menu item", "menuitem", "menu option", "menu entry", "menu action"},
		roleDef{strong: []string{"menuitem", "menuitemcheckbox", "menuitemradio"}, weak: []string{"button", "link", "option"}, menuEntry: true, clickable: true})
	// "item" is also the snapshot's role for a role-less repeated entry
	// (a div per task): to a person it is an item like any list item.
	addRole([]string{"item", "entry"},
		roleDef{strong: []string{"menuitem", "menuitemcheckbox", "menuitemradio", "listitem", "option", "treeitem", "item"},
			weak: []string{"row", "link", "button"}, container: true})
	addRole([]string{"option", "choice"},
		roleDef{strong: []string{"option"}, weak: []string{"menuitem", "menuitemradio", "radio"}, clickable: true})
	addRole([]string{"dialog", "modal", "popup", "pop-up", "pop up", "modal dialog", "dialog box", "window", "overlay", "lightbox"},
		roleDef{strong: []string{"dialog", "alertdialog"}, container: true})
	addRole([]string{"image", "picture", "logo", "img", "photo", "icon", "avatar", "graphic", "illustration"},
		roleDef{strong: []string{"img", "image"}, weak: []string{"graphics-symbol", "figure"}})
	addRole([]string{"switch", "toggle", "toggle switch"},
		roleDef{strong: []string{"switch"}, weak: []string{"checkbox", "button"}, looks: []string{"switch", "checkbox"}})
	addRole([]string{"slider", "range slider", "range"}, roleDef{strong: []string{"slider"}})
	addRole([]string{"list item", "listitem", "list entry"},
		roleDef{strong: []string{"listitem"}, weak: []string{"option", "treeitem", "item"}, container: true})
	addRole([]string{"list"}, roleDef{strong: []string{"list"}, weak: []string{"listbox", "menu"}, container: true})
	addRole([]string{"table", "grid", "data grid", "data table", "spreadsheet"},
		roleDef{strong: []string{"table", "grid", "treegrid"}, container: true})
	addRole([]string{"form"}, roleDef{strong: []string{"form"}, weak: []string{"search"}, container: true})
	addRole([]string{"section", "area", "block"},
		roleDef{strong: []string{"region", "group", "section"}, weak: []string{"article", "complementary", "form", "navigation", "tabpanel", "dialog", "list"}, container: true})
	addRole([]string{"region"}, roleDef{strong: []string{"region"}, weak: []string{"group", "article", "complementary", "section"}, container: true})
	addRole([]string{"panel", "pane"},
		roleDef{strong: []string{"region", "group", "tabpanel"}, weak: []string{"complementary", "dialog", "article"}, container: true})
	addRole([]string{"tab panel", "tabpanel"}, roleDef{strong: []string{"tabpanel"}, weak: []string{"region", "group"}, container: true})
	addRole([]string{"card", "tile"}, roleDef{strong: []string{"article", "group", "region", "listitem"}, weak: []string{"item"}, container: true, entry: true})
	addRole([]string{"navigation", "nav", "navbar", "nav bar", "navigation bar", "menu bar", "menubar", "breadcrumbs", "breadcrumb"},
		roleDef{strong: []string{"navigation", "menubar"}, container: true})
	addRole([]string{"menu", "context menu", "popup menu", "pop-up menu"},
		roleDef{strong: []string{"menu", "menubar"}, weak: []string{"listbox"}, container: true})
	addRole([]string{"toolbar", "tool bar"}, roleDef{strong: []string{"toolbar"}, container: true})
	addRole([]string{"group", "fieldset", "field set", "radio group", "button group"},
		roleDef{strong: []string{"group", "radiogroup"}, weak: []string{"region"}, container: true})
	addRole([]string{"banner", "header", "top bar", "masthead", "page header"}, roleDef{strong: []string{"banner"}, container: true})
	addRole([]string{"footer", "page footer"}, roleDef{strong: []string{"contentinfo"}, container: true})
	addRole([]string{"main content", "main area", "main section"}, roleDef{strong: []string{"main"}, container: true})
	addRole([]string{"article", "post"}, roleDef{strong: []string{"article"}, weak: []string{"listitem"}, container: true})
	addRole([]string{"sidebar", "side bar", "aside"}, roleDef{strong: []string{"complementary"}, weak: []string{"navigation"}, container: true})
	addRole([]string{"status", "status message"}, roleDef{strong: []string{"status"}, weak: []string{"alert", "log"}, container: true})
	// "the result": what an action or a calculation gave, shown in an
	// <output> (role status) or a line of text classed so; also one entry
	// of a list of results ("the first result").
	addRole([]string{"result", "output", "outcome"},
		roleDef{strong: []string{"status"}, weak: []string{"alert", "log", "text", "paragraph", "listitem", "link", "article", "row", "option"}, container: true})
	addRole([]string{"alert", "error", "error message", "warning"},
		roleDef{strong: []string{"alert"}, weak: []string{"status", "alertdialog"}, container: true})
	addRole([]string{"message", "notification", "toast", "notice", "snackbar"},
		roleDef{strong: []string{"status", "alert"}, weak: []string{"log", "alertdialog", "text"}, container: true})
	// Words for text on screen that has no role of its own: a run of text
	// in the snapshot (see textWords). Elements whose content is such text
	// fit loosely.
	addRole(textWords, roleDef{strong: []string{"text"}, weak: []string{"paragraph", "note", "caption", "status", "cell", "gridcell"}})
	addRole([]string{"paragraph"}, roleDef{strong: []string{"paragraph"}, container: true})
	addRole([]string{"tree item", "treeitem", "tree node"}, roleDef{strong: []string{"treeitem"}, container: true})
	addRole([]string{"tree"}, roleDef{strong: []string{"tree"}, container: true})
	addRole([]string{"progress bar", "progressbar", "progress indicator"}, roleDef{strong: []string{"progressbar"}})
	addRole([]string{"tab list", "tablist", "tab bar", "tabs"}, roleDef{strong: []string{"tablist"}, container: true})
	addRole([]string{"tooltip"}, roleDef{strong: []string{"tooltip"}, container: true})
	addRole([]string{"separator", "divider"}, roleDef{strong: []string{"separator"}})
}

// textWords are the role words that mean a run of text: "the tasks
// remaining counter", `the "3 tasks remaining" text`, "the total price",
// "the oat milk label".
var textWords = []string{"text", "label", "caption", "counter", "count", "note", "price", "amount", "hint", "footnote", "tagline", "badge"}

// containerRoles are the snapshot roles whose descendants a description can
// place something "in" when it names no container word ("for Alice").
var containerRoles = map[string]bool{
	"row": true, "cell": true, "gridcell": true, "listitem": true, "article": true, "group": true, "radiogroup": true,
	"region": true, "dialog": true, "alertdialog": true, "form": true, "menu": true, "menubar": true, "navigation": true,
	"toolbar": true, "tabpanel": true, "complementary": true, "treeitem": true, "banner": true, "contentinfo": true,
	"list": true, "table": true, "grid": true, "treegrid": true, "search": true, "status": true, "alert": true,
}

// rowish are roles whose first cell names them best ("the Alice row").
var rowish = map[string]bool{"row": true}

// articles are dropped from the start of names and never count as name words.
var articles = map[string]bool{"the": true, "a": true, "an": true, "this": true, "that": true, "these": true, "those": true, "its": true, "their": true, "my": true, "your": true, "our": true}

// filler words are dropped from descriptions: they describe the act of
// describing, not the element.
var filler = map[string]bool{
	"please": true, "element": true, "control": true, "widget": true, "thing": true,
	"visible": true, "clickable": true, "page": true, "screen": true,
}

// sizeWords describe size, which the local locator does not judge; they are
// dropped from the name and reported in Why.
var sizeWords = map[string]bool{"big": true, "large": true, "small": true, "tiny": true, "little": true, "huge": true, "larger": true, "smaller": true}

// introducers start the name explicitly: "the button labeled Save".
var introducers = [][]string{
	{"labeled"}, {"labelled"}, {"called"}, {"named"}, {"titled"}, {"entitled"}, {"captioned"}, {"marked"},
	{"with", "the", "text"}, {"with", "text"}, {"with", "the", "label"}, {"with", "label"}, {"with", "the", "name"},
	{"with", "name"}, {"with", "the", "caption"}, {"with", "caption"}, {"with", "the", "title"}, {"with", "title"},
	{"that", "says"}, {"which", "says"}, {"that", "reads"}, {"which", "reads"}, {"saying"}, {"reading"}, {"says"},
	{"with", "the", "placeholder"}, {"with", "placeholder"},
}

// stopwords do not count when words are compared one by one (they still
// count for an exact match of the whole phrase).
var stopwords = map[string]bool{
	"the": true, "a": true, "an": true, "to": true, "of": true, "for": true, "and": true, "or": true, "in": true,
	"on": true, "at": true, "with": true, "my": true, "your": true, "&": true, "by": true, "is": true,
}

// ordinalWords are the spelled ordinals.
var ordinalWords = map[string]int{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
	"ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "last": -1, "final": -1, "penultimate": -2,
}

// colorWords maps a colour word to its class.
var colorWords = map[string]string{
	"blue": "blue", "navy": "blue", "green": "green", "red": "red", "crimson": "red", "maroon": "red",
	"grey": "grey", "gray": "grey", "silver": "grey", "yellow": "yellow", "gold": "yellow", "golden": "yellow",
	"orange": "orange", "amber": "orange", "purple": "purple", "violet": "purple", "indigo": "blue",
	"black": "black", "white": "white", "pink": "pink", "magenta": "pink", "brown": "brown",
	"cyan": "cyan", "teal": "cyan", "turquoise": "cyan",
}

// shades qualify a colour word and are otherwise ignored ("dark blue").
var shades = map[string]bool{"dark": true, "light": true, "bright": true, "pale": true, "deep": true, "darker": true, "lighter": true}

// actionVerbs start a description that asks for something to act on.
var actionVerbs = map[string]bool{
	"click": true, "double-click": true, "right-click": true, "tap": true, "press": true, "hover": true,
	"type": true, "fill": true, "focus": true, "uncheck": true, "untick": true, "drag": true,
	"double click": true, "right click": true, "fill in": true, "fill out": true, "scroll to": true, "hover over": true,
}

// weakVerbs are actions only when an article or preposition follows.
var weakVerbs = map[string]bool{
	"select": true, "choose": true, "pick": true, "check": true, "tick": true, "open": true, "expand": true,
	"collapse": true, "enter": true, "toggle": true, "hit": true, "push": true, "use": true,
}

// actionPreps follow a verb and are dropped with it: "click on", "type into".
var actionPreps = map[string]bool{"on": true, "into": true, "in": true, "over": true, "onto": true, "at": true}

// relation keywords split a description into the target and its clauses.
type kwKind int

const (
	kwIn      kwKind = iota + 1 // in, inside, within, of, on, from
	kwFor                       // for: an ancestor (or the element itself) that mentions X
	kwWith                      // with, containing: has X inside, or mentions X
	kwSpatial                   // next to, above, below, left of, right of
)

type keyword struct {
	words []string
	kind  kwKind
	rel   string // for spatial: the relation name
}

// keywords, longest first within each start word.
var keywords = []keyword{
	{[]string{"to", "the", "left", "of"}, kwSpatial, "left of"},
	{[]string{"to", "the", "right", "of"}, kwSpatial, "right of"},
	{[]string{"on", "the", "left", "of"}, kwSpatial, "left of"},
	{[]string{"on", "the", "right", "of"}, kwSpatial, "right of"},
	{[]string{"left", "of"}, kwSpatial, "left of"},
	{[]string{"right", "of"}, kwSpatial, "right of"},
	{[]string{"next", "to"}, kwSpatial, "next to"},
	{[]string{"close", "to"}, kwSpatial, "next to"},
	{[]string{"adjacent", "to"}, kwSpatial, "next to"},
	{[]string{"beside"}, kwSpatial, "next to"},
	{[]string{"besides"}, kwSpatial, "next to"},
	{[]string{"alongside"}, kwSpatial, "next to"},
	{[]string{"near"}, kwSpatial, "next to"},
	{[]string{"above"}, kwSpatial, "above"},
	{[]string{"over"}, kwSpatial, "above"},
	{[]string{"below"}, kwSpatial, "below"},
	{[]string{"underneath"}, kwSpatial, "below"},
	{[]string{"beneath"}, kwSpatial, "below"},
	{[]string{"under"}, kwSpatial, "below"}, // "under the Settings menu" reads as in: see parse
	{[]string{"inside", "of"}, kwIn, ""},
	{[]string{"inside"}, kwIn, ""},
	{[]string{"within"}, kwIn, ""},
	{[]string{"in"}, kwIn, ""},
	{[]string{"of"}, kwIn, ""},
	{[]string{"on"}, kwIn, ""},
	{[]string{"from"}, kwIn, ""},
	{[]string{"for"}, kwFor, ""},
	{[]string{"belonging", "to"}, kwFor, ""},
	{[]string{"that", "contains"}, kwWith, ""},
	{[]string{"which", "contains"}, kwWith, ""},
	{[]string{"that", "has"}, kwWith, ""},
	{[]string{"which", "has"}, kwWith, ""},
	{[]string{"containing"}, kwWith, ""},
	{[]string{"having"}, kwWith, ""},
	{[]string{"with"}, kwWith, ""},
}
