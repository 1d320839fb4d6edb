package run

import "testing"

// The settings form's near misses: two checkboxes and a switch whose names
// share no word, a select and a Save button.
// settingsDivToggles: divsoup's checkboxes and switch are divs with a
// click listener only; the snapshot has their labels' text and no control.
const settingsDivToggles = "divsoup: the toggles are divs with a click listener only, text to the snapshot; no checkbox or switch role"

var settingsNearMisses = []nearMiss{
	{Desc: "the Weekly digest checkbox", Want: "settings:digest", Gap: settingsDivToggles},
	{Desc: "the Email notifications checkbox", Want: "settings:email", Gap: settingsDivToggles},
	{Desc: "the Dark mode switch", Want: "settings:dark", Gap: settingsDivToggles},
	{Desc: "the Language select", Want: "settings:language"},
	{Desc: "the Save button", Want: "settings:save",
		Gap: "divsoup: Save is a div with a click listener only, text to the snapshot; no button role"},
	// two checkboxes: no name, no pick
	{Desc: "the checkbox", Want: nearMissAmbiguous, Gap: settingsDivToggles},
	{Desc: "the checkbox in the Preferences group", Style: "library", Want: nearMissAmbiguous},
}

func TestZooNearMissSettings(t *testing.T) { zooNearMiss(t, "settings", settingsNearMisses) }
