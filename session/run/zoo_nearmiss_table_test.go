package run

import (
	"slices"
	"testing"
)

// The members table's near misses. The rows read Bob Stone, Ann Leeds,
// Cara Diaz, Ann Lee, Dev Patel, Eve Kim ("Ann Lee" is a prefix of "Ann
// Leeds"; sorting by name puts Ann Lee first); two are Editors, two
// Invited. Every row ends in a kebab whose menu (Edit, Duplicate, Delete)
// opens in a portal at the end of <body>.
const (
	tableSortAsc  = `clickKey("table:sort:name")`
	tableSortDesc = `clickKey("table:sort:name"); clickKey("table:sort:name")`
	tableMenuAnn  = `clickKey("table:menu:ann lee")`
	tableCopyAnn  = `clickKey("table:menu:ann lee"); clickKey("table:menuitem:duplicate")`
	tableEditCara = `clickKey("table:menu:cara diaz"); clickKey("table:menuitem:edit")`
	tableCopyEdit = `clickKey("table:menu:bob stone"); clickKey("table:menuitem:duplicate"); clickKey("table:menu:cara diaz"); clickKey("table:menuitem:edit"); enterKey("table:edit-name", "Cara Ortiz")`
	tableTwoAnns  = `clickKey("table:menu:bob stone"); clickKey("table:menuitem:edit"); enterKey("table:edit-name", "Ann Lee")`
	// a second role-less menu laid over the page (a user menu classed
	// "user-menu", position absolute) holding a clickable "Delete account",
	// with the row menu open or not
	tableUserMenu     = `addUserMenu()`
	tableUserMenuOpen = `clickKey("table:menu:ann lee"); addUserMenu()`
	// a second div classed "menu" (laid over the page by app.css) holding
	// a clickable "Delete", with the row menu open
	tableSecondMenu = `clickKey("table:menu:ann lee"); const m = document.createElement('div'); m.className = 'menu'; const d = addClickable("table:count", "Delete", "trap:flat-delete"); d.replaceWith(m); m.append(d);`
)

// The menu traps: "in the menu" reads a role-less box whose class words
// say menu or dropdown; the words alone never make a name, and two boxes
// are told apart by what they hold.
var tableMenuRows = []nearMiss{
	{Prep: tableMenuAnn, Desc: "Delete in the menu", Want: "table:menuitem:delete"},
	{Prep: tableUserMenuOpen, Desc: "Delete in the menu", Want: "table:menuitem:delete"},
	{Prep: tableUserMenuOpen, Desc: "Delete account in the menu", Want: "trap:delete-account"},
	// the only Delete in a menu reads "Delete account": the name starts
	// with the words, as getByText('Delete') would match it too
	{Prep: tableUserMenu, Desc: "Delete in the menu", Want: "trap:delete-account"},
	{Prep: tableUserMenu, Desc: "the Delete button in the menu", Want: "trap:delete-account"},
	{Prep: tableUserMenu, Desc: "the menu", Want: "trap:user-menu"},
	{Desc: "Delete in the menu", Want: nearMissNone},
	{Desc: "the menu", Want: nearMissNone},
	// two menus hold a Delete: the row menu's is in a role=menu where the
	// page says so, and in divsoup both are boxes classed menu: no pick
	{Prep: tableSecondMenu, Desc: "Delete in the menu", Style: "semantic", Want: "table:menuitem:delete"},
	{Prep: tableSecondMenu, Desc: "Delete in the menu", Style: "divsoup", Want: nearMissAmbiguous},
}

// tableDivCells: divsoup's cells are divs classed mt-td, text to the
// snapshot, and "cell" is a role word no text node has.
const tableDivCells = "divsoup: cells are role-less divs (mt-td), text to the snapshot; no cell role to match"

var tableNearMisses = []nearMiss{
	// Ann Leeds comes first on the page, Ann Lee after it
	{Desc: "the Ann Lee row", Want: "table:row:ann lee"},
	{Desc: "the Ann Leeds row", Want: "table:row:ann leeds"},
	{Desc: "the More actions button in the Ann Lee row", Want: "table:menu:ann lee"},
	{Desc: "the More actions button in the Ann Leeds row", Want: "table:menu:ann leeds"},
	// sorted, Ann Lee comes first; then last
	{Prep: tableSortAsc, Desc: "the Ann Lee row", Want: "table:row:ann lee"},
	{Prep: tableSortAsc, Desc: "the Ann Leeds row", Want: "table:row:ann leeds"},
	{Prep: tableSortAsc, Desc: "the More actions button in the Ann Lee row", Want: "table:menu:ann lee"},
	{Prep: tableSortDesc, Desc: "the Ann Lee row", Want: "table:row:ann lee"},
	{Prep: tableSortDesc, Desc: "the Ann Leeds row", Want: "table:row:ann leeds"},
	// a first name two rows share names neither
	{Desc: "the Ann row", Want: nearMissAmbiguous},
	// one kebab per row: no row named, no pick
	{Desc: "the More actions button", Want: nearMissAmbiguous},
	// text in two rows, text in one
	{Desc: `the "Editor" cell`, Want: nearMissAmbiguous, Gap: tableDivCells},
	{Desc: `the "Suspended" cell`, Want: "table:status:dev patel", Gap: tableDivCells},
	{Desc: `the "Invited" text`, Want: nearMissAmbiguous},
	{Desc: `the "Admin" text`, Want: "table:role:ann lee"},
	{Desc: "the member count", Want: "table:count"},
	// no row reads "Ann Lea"
	{Desc: "the Ann Lea row", Want: nearMissNone},
	// the menu is open for Ann Lee's row only
	{Prep: tableMenuAnn, Desc: "the Delete menu item", Want: "table:menuitem:delete"},
	{Prep: tableMenuAnn, Desc: "the Duplicate menu item", Want: "table:menuitem:duplicate"},
	{Prep: tableMenuAnn, Desc: "the Delete button", Want: "table:menuitem:delete"},
	{Prep: tableMenuAnn, Desc: "click Duplicate", Want: "table:menuitem:duplicate"},
	// sorting is by the Name header alone
	{Desc: "the Name column header", Want: "table:sort:name"},
	// the menu's words stand one under another: "Duplicate" is no label
	// of "Delete" below it
	{Prep: tableMenuAnn, Desc: "Duplicate", Want: "table:menuitem:duplicate"},
	// closed, there is no menu item to pick
	{Desc: "the Delete menu item", Want: nearMissNone},
	// a duplicate reads "Ann Lee (copy)": "Ann Lee" still names the original
	{Prep: tableCopyAnn, Desc: "the Ann Lee row", Want: "table:row:ann lee"},
	{Prep: tableCopyAnn, Desc: "the Ann Lee (copy) row", Want: "table:row:ann lee (copy)"},
	// Bob Stone renamed "Ann Lee": two rows read "Ann Lee"
	{Prep: tableTwoAnns, Desc: "the Ann Lee row", Want: nearMissAmbiguous},
	{Prep: tableTwoAnns, Desc: "the More actions button in the Ann Lee row", Want: nearMissAmbiguous},
	{Prep: tableTwoAnns, Desc: "the Ann Leeds row", Want: "table:row:ann leeds"},
	// Cara Diaz's name cell is a field while it is edited: the row is
	// still the row (in divsoup, not the cell div around the field)
	{Prep: tableEditCara, Desc: "the Cara Diaz row", Want: "table:row:cara diaz"},
	{Prep: tableEditCara, Desc: "the name field", Want: "table:edit-name"},
	{Prep: tableEditCara, Desc: "the Ann Lee row", Want: "table:row:ann lee"},
	{Prep: tableEditCara, Desc: `the "Viewer" text`, Want: "table:role:cara diaz"},
	// the zoo's steps after Duplicate and Edit (which divsoup's menu items
	// stop): a copy and a renamed row
	{Prep: tableCopyEdit, Desc: "the Bob Stone (copy) row", Want: "table:row:bob stone (copy)"},
	{Prep: tableCopyEdit, Desc: "the Bob Stone row", Want: "table:row:bob stone"},
	{Prep: tableCopyEdit, Desc: "the Cara Ortiz row", Want: "table:row:cara ortiz"},
}

func TestZooNearMissTable(t *testing.T) {
	zooNearMiss(t, "table", append(slices.Clip(tableNearMisses), tableMenuRows...))
}
