package run

import "testing"

// The settings form's near misses: two checkboxes and a switch whose names
// share no word, a select and a Save button.
var settingsNearMisses = []nearMiss{
	{Desc: "the Weekly digest checkbox", Want: "settings:digest"},
	{Desc: "the Email notifications checkbox", Want: "settings:email"},
	{Desc: "the Dark mode switch", Want: "settings:dark"},
	{Desc: "the Language select", Want: "settings:language"},
	{Desc: "the Save button", Want: "settings:save"},
	// two checkboxes: no name, no pick
	{Desc: "the checkbox", Want: nearMissAmbiguous},
	{Desc: "the checkbox in the Preferences group", Style: "library", Want: nearMissAmbiguous},
}

func TestZooNearMissSettings(t *testing.T) { zooNearMiss(t, "settings", settingsNearMisses) }
