package run

import "testing"

// The task list's near misses. The seed list holds "oat milk", "oat milk
// and honey", "bread" and "eggs"; every item has a checkbox and a
// hover-only Delete button.
var tasksNearMisses = []nearMiss{
	// "oat milk" is a whole item; "oat milk and honey" only contains it
	{Desc: "the oat milk checkbox", Want: "tasks:toggle:oat milk"},
	{Desc: "the checkbox in the oat milk item", Want: "tasks:toggle:oat milk"},
	{Desc: "the checkbox for oat milk", Want: "tasks:toggle:oat milk"},
	{Desc: "the oat milk and honey checkbox", Want: "tasks:toggle:oat milk and honey"},
	{Desc: "the checkbox in the oat milk and honey item", Want: "tasks:toggle:oat milk and honey"},
	{Desc: "the oat milk label", Want: "tasks:text:oat milk"},
	{Desc: "the oat milk and honey label", Want: "tasks:text:oat milk and honey"},
	// a word both items share names neither
	{Desc: "the milk checkbox", Want: nearMissAmbiguous,
		Gap: "webcomponents: the checkboxes are named \"Complete\", and \"milk\" is only part of each item's text: the item reading finds none, not two"},
	// one per item: no item named, no pick
	{Desc: "the Delete button", Want: nearMissAmbiguous},
	{Desc: "the checkbox", Want: nearMissAmbiguous},
	{Desc: "the Delete button in the bread item", Want: "tasks:delete:bread"},
	{Desc: "the Remove button in the eggs item", Want: "tasks:delete:eggs",
		Gap: "semantic: \"remove\" is a synonym for hints only: an aria-label \"Delete\" does not say remove"},
	{Desc: "the Delete button in the oat milk item", Want: "tasks:delete:oat milk"},
	// ordinals count list items, not the header's checkbox
	{Desc: "the checkbox in the first item", Want: "tasks:toggle:oat milk"},
	{Desc: "the checkbox in the third item", Want: "tasks:toggle:bread"},
	{Desc: "the Mark all as complete checkbox", Want: "tasks:toggle-all"},
	{Desc: "the tasks remaining counter", Want: "tasks:count"},
	{Desc: "the Active filter", Want: "tasks:filter:active"},
	// two items read "oat milk": the label names two controls
	{Prep: `addTask("oat milk")`, Desc: "the oat milk checkbox", Want: nearMissAmbiguous},
	{Prep: `addTask("oat milk")`, Desc: "the Delete button in the oat milk item", Want: nearMissAmbiguous},
	{Prep: `addTask("oat milk")`, Desc: "the oat milk and honey checkbox", Want: "tasks:toggle:oat milk and honey"},
	// a checkbox really named "oat milk" outside the list beats the item
	// reading "oat milk" (where the item's own checkbox is not so named)
	{Style: "webcomponents", Prep: tasksNamedBox, Desc: "the oat milk checkbox", Want: "tasks:trap:oat milk"},
	{Style: "divsoup", Prep: tasksNamedBox, Desc: "the oat milk checkbox", Want: "tasks:trap:oat milk"},
	{Style: "semantic", Prep: tasksNamedBox, Desc: "the oat milk checkbox", Want: nearMissAmbiguous},
	{Prep: tasksNamedBox, Desc: "the bread checkbox", Want: "tasks:toggle:bread"},
	// the × of an item deletes it; "close" still reads it as it did
	{Desc: "the Delete button in the eggs item", Want: "tasks:delete:eggs"},
	{Desc: "the Close button in the eggs item", Want: "tasks:delete:eggs",
		Gap: "semantic, library: the button is named Delete (semantic) or shows a trash icon (library): nothing says close"},
	// positions among the items count in the task list only: the site
	// navigation's list items above it are not "the item above" the first
	{Desc: "the item below the bread item", Want: "tasks:item:eggs"},
	{Desc: "the item above the bread item", Want: "tasks:item:oat milk and honey"},
	{Desc: "the item above the oat milk item", Want: nearMissNone},
	{Desc: "the item below the eggs item", Want: nearMissNone},
	{Desc: `the item below the "What needs to be done?" field`, Want: "tasks:item:oat milk"},
}

// tasksNamedBox adds, after the task list, a checkbox whose label reads
// "oat milk" (key tasks:trap:oat milk).
const tasksNamedBox = `const l = document.createElement('label');
const c = document.createElement('input');
c.type = 'checkbox';
c.setAttribute('data-zoo-key', 'tasks:trap:oat milk');
l.append(c, ' oat milk');
document.querySelector('main').append(l);`

func TestZooNearMissTasks(t *testing.T) { zooNearMiss(t, "tasks", tasksNearMisses) }
