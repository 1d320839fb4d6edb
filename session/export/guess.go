package export

import (
	"strconv"
	"strings"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/locate"
)

// scopeRoles are the roles of the containers a Playwright locator is
// chained under ("in the Alice row": getByRole('row').filter(…)).
var scopeRoles = map[string]bool{
	"row": true, "listitem": true, "article": true, "dialog": true, "menu": true,
	"region": true, "form": true, "navigation": true, "toolbar": true,
}

// scopeRole is the role of the container an "in" clause names, as a
// Playwright scope: the locator reads "item" as a menu item first; among
// containers it is a list item unless the description says "menu item".
func scopeRole(role, desc string) string {
	if role == "menuitem" && !strings.Contains(strings.ToLower(desc), "menu item") {
		role = "listitem"
	}
	if scopeRoles[role] {
		return role
	}
	return ""
}

// Hint reads what a description says about where its element is, as the
// local locator reads it (locate.Describe): the container it names ("the
// Menu button in the Alice row": a row with the text Alice) and an ordinal
// ("the second Delete button"), for browser.Page.PlaywrightLocator.
func Hint(desc string) browser.PWHint {
	return hint(locate.Describe(desc), desc)
}

func hint(in session.Intent, desc string) browser.PWHint {
	var h browser.PWHint
	for _, r := range in.Related {
		switch r.Relation {
		case "in":
			if role := scopeRole(r.Role, desc); role != "" && h.ScopeRole == "" && r.Name != "" {
				h.ScopeRole, h.ScopeText = role, strings.Trim(r.Name, `"'`)
			}
		case "nth":
			if n, err := strconv.Atoi(r.Name); err == nil && n > 0 && h.Nth == nil {
				n--
				h.Nth = &n
			}
		}
	}
	return h
}

// Guess is the locator a description suggests when nothing was recorded
// for it: the role and name the local locator reads in it (a row or an
// item by its text, a field by its label), chained under the container it
// names, else the text it quotes or says.
func Guess(desc string) browser.PWLocator {
	d := strings.TrimSpace(desc)
	in := locate.Describe(d)
	h := hint(in, d)
	loc := browser.PWLocator{Nth: h.Nth}
	if h.ScopeRole != "" {
		loc.Scope = &browser.PWScope{Role: h.ScopeRole, HasText: h.ScopeText}
	}
	role, name := in.Attributes["role"], strings.Trim(in.Attributes["name"], `"'“”`)
	switch {
	case role == "" || role == "text":
		if name == "" {
			name = d
		}
		loc.Kind, loc.Value = "text", name
	case role == "textbox" && name != "":
		loc.Kind, loc.Value = "label", name
	case role == "row" || role == "listitem":
		loc.Kind, loc.Role, loc.HasText = "role", role, name
	default:
		loc.Kind, loc.Role, loc.Name = "role", role, name
	}
	return loc
}

// ColorWord returns the colour a description names ("the blue button":
// blue), as the local locator reads it, or "".
func ColorWord(desc string) string {
	return strings.ToLower(locate.Describe(desc).Attributes["color"])
}
