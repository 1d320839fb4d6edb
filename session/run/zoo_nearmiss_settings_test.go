package run

import "testing"

// The settings form's near misses: two checkboxes and a switch whose names
// share no word, a select and a Save button.
// settingsDivToggles: divsoup's checkboxes and switch are divs with a
// click listener only, in clickable rows; the snapshot knows them as
// clickables drawn as a checkbox or a switch, which fit a checkbox or
// switch word only with a name.
const settingsDivToggles = "divsoup: the toggles are divs drawn as a box or a pill (clickables that look like a checkbox or a switch); a loose role fit needs a name"

var settingsNearMisses = []nearMiss{
	{Desc: "the Weekly digest checkbox", Want: "settings:digest"},
	{Desc: "the Email notifications checkbox", Want: "settings:email"},
	{Desc: "the Dark mode switch", Want: "settings:dark"},
	{Desc: "the Language select", Want: "settings:language"},
	{Desc: "the Save button", Want: "settings:save"},
	// two checkboxes: no name, no pick (divsoup's boxes only look like
	// checkboxes, which needs a name to go with it)
	{Desc: "the checkbox", Want: nearMissAmbiguous, Gap: settingsDivToggles},
	{Desc: "the checkbox in the Preferences group", Style: "library", Want: nearMissAmbiguous},
	// a checkbox word for the switch and a switch word for a checkbox fit
	// loosely, as the roles do
	{Desc: "the Dark mode checkbox", Want: "settings:dark"},
	{Desc: "the Weekly digest toggle", Want: "settings:digest"},
	// role-less clickables beside the controls: a clickable "Save
	// settings" next to Save, a plain text "Save", two clickable "Delete"s
	// in two cards
	{Prep: settingsTrapSave, Desc: "the Save button", Want: "settings:save"},
	{Prep: settingsTrapSave, Desc: "the Save settings button", Want: "trap:save-settings"},
	{Prep: settingsTrapSave, Desc: "click Save", Want: "settings:save"},
	{Prep: settingsTrapText, Desc: "the Save button", Want: "settings:save"},
	{Prep: settingsTrapCards, Desc: "the Delete button", Want: nearMissAmbiguous},
	{Prep: settingsTrapCards, Desc: "the Delete link", Want: nearMissAmbiguous},
	{Prep: settingsTrapNamedCards, Desc: "the Delete button in the Beta card", Want: "trap:delete:Beta"},
	{Prep: settingsTrapNamedCards, Desc: "the Delete button", Want: nearMissAmbiguous},
	// a clickable is no checkbox unless drawn as one
	{Prep: settingsTrapSave, Desc: "the Save settings checkbox", Want: nearMissNone},
}

const (
	settingsTrapSave       = `addClickable("settings:save", "Save settings", "trap:save-settings")`
	settingsTrapText       = `addClickable("settings:save", "Save", "trap:save-text", true)`
	settingsTrapCards      = `addCards("settings:save", ["Alpha", "Beta"], false)`
	settingsTrapNamedCards = `addCards("settings:save", ["Alpha", "Beta"], true)`
)

func TestZooNearMissSettings(t *testing.T) { zooNearMiss(t, "settings", settingsNearMisses) }
