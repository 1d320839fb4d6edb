package run

import "testing"

// The task list's near misses. The seed list holds "oat milk", "oat milk
// and honey", "bread" and "eggs"; every item has a checkbox and a
// hover-only Delete button.
var tasksNearMisses = []nearMiss{
	// "oat milk" is a whole item; "oat milk and honey" only contains it
	{Desc: "the oat milk checkbox", Want: "tasks:toggle:oat milk",
		Gap: "webcomponents: the item checkboxes are named \"Complete\": the item text is not the checkbox's name"},
	{Desc: "the checkbox in the oat milk item", Want: "tasks:toggle:oat milk"},
	{Desc: "the checkbox for oat milk", Want: "tasks:toggle:oat milk"},
	{Desc: "the oat milk and honey checkbox", Want: "tasks:toggle:oat milk and honey",
		Gap: "webcomponents: the item checkboxes are named \"Complete\": the item text is not the checkbox's name"},
	{Desc: "the checkbox in the oat milk and honey item", Want: "tasks:toggle:oat milk and honey"},
	{Desc: "the oat milk label", Want: "tasks:text:oat milk"},
	{Desc: "the oat milk and honey label", Want: "tasks:text:oat milk and honey"},
	// a word both items share names neither
	{Desc: "the milk checkbox", Want: nearMissAmbiguous,
		Gap: "webcomponents: the item checkboxes are named \"Complete\": the item text is not the checkbox's name"},
	// one per item: no item named, no pick
	{Desc: "the Delete button", Want: nearMissAmbiguous,
		Gap: "divsoup: the × button's only clues are the glyph and the class tl-x, read as close, not delete"},
	{Desc: "the checkbox", Want: nearMissAmbiguous},
	{Desc: "the Delete button in the bread item", Want: "tasks:delete:bread",
		Gap: "divsoup: the × button's only clues are the glyph and the class tl-x, read as close, not delete"},
	{Desc: "the Remove button in the eggs item", Want: "tasks:delete:eggs",
		Gap: "semantic, divsoup: \"remove\" is a synonym for hints only: an aria-label \"Delete\" (semantic) or the tl-x class (divsoup) does not say remove"},
	{Desc: "the Delete button in the oat milk item", Want: "tasks:delete:oat milk",
		Gap: "divsoup: the × button's only clues are the glyph and the class tl-x, read as close, not delete"},
	// ordinals count list items, not the header's checkbox
	{Desc: "the checkbox in the first item", Want: "tasks:toggle:oat milk",
		Gap: "divsoup, webcomponents: container ordinals count lists of one role: role-less items and custom-element hosts are not counted yet"},
	{Desc: "the checkbox in the third item", Want: "tasks:toggle:bread",
		Gap: "divsoup, webcomponents: container ordinals count lists of one role: role-less items and custom-element hosts are not counted yet"},
	{Desc: "the Mark all as complete checkbox", Want: "tasks:toggle-all"},
	{Desc: "the tasks remaining counter", Want: "tasks:count"},
	{Desc: "the Active filter", Want: "tasks:filter:active",
		Gap: "divsoup: the filters are role-less text, and \"filter\" is no role word"},
	// two items read "oat milk": the label names two controls
	{Prep: `addTask("oat milk")`, Desc: "the oat milk checkbox", Want: nearMissAmbiguous,
		Gap: "webcomponents: the item checkboxes are named \"Complete\": the item text is not the checkbox's name"},
	{Prep: `addTask("oat milk")`, Desc: "the Delete button in the oat milk item", Want: nearMissAmbiguous,
		Gap: "divsoup: the × button's only clues are the glyph and the class tl-x, read as close, not delete"},
	{Prep: `addTask("oat milk")`, Desc: "the oat milk and honey checkbox", Want: "tasks:toggle:oat milk and honey",
		Gap: "webcomponents: the item checkboxes are named \"Complete\": the item text is not the checkbox's name"},
}

func TestZooNearMissTasks(t *testing.T) { zooNearMiss(t, "tasks", tasksNearMisses) }
