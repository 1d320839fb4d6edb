package export

import (
	"regexp"
	"strings"

	"github.com/e2e-dev/e2e/session/browser"
)

// containerWords map the container a description names ("in the Alice
// row") to its ARIA role.
var containerWords = map[string]string{
	"row": "row", "item": "listitem", "list item": "listitem", "card": "article",
	"dialog": "dialog", "modal": "dialog", "menu": "menu", "section": "region",
	"form": "form", "navigation": "navigation", "toolbar": "toolbar",
}

var scopeRE = regexp.MustCompile(`(?i)\s+(?:in|inside|within|of|on) the (.+?) (row|list item|item|card|dialog|modal|menu|section|form|navigation|toolbar)$`)

var ordinals = map[string]int{
	"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "sixth": 5,
	"1st": 0, "2nd": 1, "3rd": 2, "4th": 3, "5th": 4, "6th": 5,
}

var ordinalRE = regexp.MustCompile(`(?i)^the (first|second|third|fourth|fifth|sixth|1st|2nd|3rd|4th|5th|6th) `)

// Hint reads what a description says about where its element is: the
// container it names at its end ("the Menu button in the Alice row": a row
// with the text Alice) and an ordinal at its start ("the second Delete
// button"), for browser.Page.PlaywrightLocator.
func Hint(desc string) browser.PWHint {
	var h browser.PWHint
	d := strings.TrimSpace(desc)
	if m := scopeRE.FindStringSubmatch(d); m != nil {
		h.ScopeRole = containerWords[strings.ToLower(m[2])]
		h.ScopeText = strings.Trim(m[1], `"'`)
	}
	if m := ordinalRE.FindStringSubmatch(d); m != nil {
		n := ordinals[strings.ToLower(m[1])]
		h.Nth = &n
	}
	return h
}

// roleWords map the word that ends a description ("the Sign in button") to
// the ARIA role Playwright finds it by.
var roleWords = map[string]string{
	"button": "button", "link": "link", "checkbox": "checkbox", "heading": "heading",
	"tab": "tab", "radio": "radio", "switch": "switch", "row": "row", "option": "option",
	"menu item": "menuitem", "menuitem": "menuitem", "dialog": "dialog", "combobox": "combobox",
	"dropdown": "combobox", "select": "combobox", "image": "img", "img": "img", "slider": "slider",
	"list item": "listitem", "item": "listitem", "field": "textbox", "textbox": "textbox",
	"input": "textbox", "box": "textbox", "text field": "textbox", "search box": "searchbox",
	"column header": "columnheader", "header": "columnheader", "region": "region", "table": "table",
	"list": "list", "menu": "menu", "status": "status", "alert": "alert", "label": "text", "text": "text",
}

var quotedRE = regexp.MustCompile(`^(?:the )?["“']([^"”']+)["”'](?: text)?$`)

// Guess is the locator a description suggests when nothing was recorded
// for it: a role and name from "the NAME ROLE" (a row by its text), chained
// under the container the description names, else the text it quotes or
// says.
func Guess(desc string) browser.PWLocator {
	d := strings.TrimSpace(desc)
	h := Hint(d)
	var scope *browser.PWScope
	if m := scopeRE.FindStringSubmatchIndex(d); m != nil {
		scope = &browser.PWScope{Role: h.ScopeRole, HasText: h.ScopeText}
		d = d[:m[0]]
	}
	if m := ordinalRE.FindStringIndex(d); m != nil {
		d = "the " + d[m[1]:]
	}
	loc := browser.PWLocator{Scope: scope, Nth: h.Nth}
	if m := quotedRE.FindStringSubmatch(d); m != nil {
		loc.Kind, loc.Value = "text", m[1]
		return loc
	}
	d = strings.TrimPrefix(strings.TrimPrefix(d, "the "), "The ")
	for _, n := range []int{2, 1} {
		f := strings.Fields(d)
		if len(f) < n {
			continue
		}
		word := strings.ToLower(strings.Join(f[len(f)-n:], " "))
		role, ok := roleWords[word]
		if !ok {
			continue
		}
		// a colour is checked, not part of the name (see ColorWord)
		name := strings.Trim(strings.Join(strings.Fields(colorRE.ReplaceAllString(strings.Join(f[:len(f)-n], " "), "")), " "), `"'“”`)
		if name == "" && (role == "text" || role == "textbox") {
			break
		}
		switch role {
		case "text":
			loc.Kind, loc.Value = "text", name
		case "textbox":
			name = strings.TrimSuffix(strings.TrimSuffix(name, " labeled"), " labelled")
			loc.Kind, loc.Value = "label", name
		case "row", "listitem":
			loc.Kind, loc.Role, loc.HasText = "role", role, name
		default:
			loc.Kind, loc.Role, loc.Name = "role", role, name
		}
		return loc
	}
	loc.Kind, loc.Value = "text", d
	return loc
}

var colorRE = regexp.MustCompile(`(?i)\b(red|green|blue|yellow|orange|purple|violet|pink|black|white|gr[ae]y|brown|teal|cyan)\b`)

// ColorWord returns the colour a description names ("the blue button":
// blue), or "".
func ColorWord(desc string) string {
	return strings.ToLower(colorRE.FindString(desc))
}
