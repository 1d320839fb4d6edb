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
}

func TestZooNearMissSettings(t *testing.T) { zooNearMiss(t, "settings", settingsNearMisses) }
