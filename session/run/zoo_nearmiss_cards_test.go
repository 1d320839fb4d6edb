package run

import "testing"

// The card grid's near misses. Personal holds Starter, Pro and Pro Plus,
// Team holds Starter, Business and Enterprise: two cards read "Starter",
// "Pro" is a word of "Pro Plus". Every card has the same four icon-only
// buttons (Favourite, Edit, Delete, More actions) and no name but its text.
// cardsMenuItems: the "more" menu's items have no role in two styles.
const cardsMenuItems = "divsoup, library: the menu items have no role (divsoup: divs with a click listener, text to the snapshot; " +
	"library: <li tabindex=0 class=MuiMenuItem-root> in a role=menu list, and a class word is no role)"

var cardsNearMisses = []nearMiss{
	// "Pro" is a whole title; "Pro Plus" only contains it
	{Desc: "the Pro card", Want: "cards:card:personal/pro"},
	{Desc: "the Pro Plus card", Want: "cards:card:personal/pro plus"},
	{Desc: "the Delete button in the Pro card", Want: "cards:delete:personal/pro"},
	{Desc: "the Favourite button in the Pro Plus card", Want: "cards:favourite:personal/pro plus"},
	{Desc: "the Edit button in the Pro card", Want: "cards:edit:personal/pro"},
	// two cards read "Starter": only the section tells them apart
	{Desc: "the Starter card", Want: nearMissAmbiguous},
	{Desc: "the Delete button in the Starter card", Want: nearMissAmbiguous},
	{Desc: `the "Starter" text`, Want: nearMissAmbiguous,
		Gap: "semantic: the titles are h3 headings, and \"text\" matches role-less text only"},
	{Desc: "the Starter card in the Team section", Want: "cards:card:team/starter",
		Gap: "divsoup, webcomponents: a card clause chained with a section clause: the section holding role-less cards is no container"},
	{Desc: "the Delete button in the Starter card in the Team section", Want: "cards:delete:team/starter",
		Gap: "divsoup, webcomponents: a card clause chained with a section clause: the section holding role-less cards is no container"},
	{Desc: "the Delete button in the Starter card in the Personal section", Want: "cards:delete:personal/starter",
		Gap: "divsoup, webcomponents: a card clause chained with a section clause: the section holding role-less cards is no container"},
	// one per card: no card named, no pick
	{Desc: "the Delete button", Want: nearMissAmbiguous},
	{Desc: "the More actions button", Want: nearMissAmbiguous},
	{Desc: "the More actions button in the Enterprise card", Want: "cards:more:team/enterprise"},
	// a card's own text, not the one that contains it
	{Desc: `the "Free" text`, Want: "cards:price:personal/starter"},
	{Desc: "the favourites count", Want: "cards:count"},
	// no card reads "Pro Max" or "Premium"
	{Desc: "the Pro Max card", Want: nearMissNone},
	{Desc: "the Delete button in the Premium card", Want: nearMissNone},
	// the menu is open under one card only
	{Prep: `clickKey("cards:more:personal/pro")`, Desc: "the Duplicate menu item", Want: "cards:duplicate:personal/pro",
		Gap: cardsMenuItems},
	{Prep: `clickKey("cards:more:personal/pro")`, Desc: "the Move to Team menu item", Want: "cards:move:personal/pro",
		Gap: cardsMenuItems},
	{Prep: `clickKey("cards:more:personal/pro")`, Desc: "the Move to Personal menu item", Want: nearMissNone},
	// with the menu closed there is no menu item
	{Desc: "the Duplicate menu item", Want: nearMissNone},
	// a duplicate reads "Pro copy": "Pro" still names the original
	{Prep: `clickKey("cards:more:personal/pro"); clickKey("cards:duplicate:personal/pro")`, Desc: "the Pro card", Want: "cards:card:personal/pro"},
	{Prep: `clickKey("cards:more:personal/pro"); clickKey("cards:duplicate:personal/pro")`, Desc: "the Delete button in the Pro copy card", Want: "cards:delete:personal/pro copy"},
	// Business renamed "Pro": two cards read "Pro", in two sections
	{Prep: `clickKey("cards:edit:team/business"); enterKey("cards:editor:team/business", "Pro")`, Desc: "the Pro card", Want: nearMissAmbiguous},
	{Prep: `clickKey("cards:edit:team/business"); enterKey("cards:editor:team/business", "Pro")`, Desc: "the Delete button in the Pro card in the Team section", Want: "cards:delete:team/pro",
		Gap: "divsoup, webcomponents: a card clause chained with a section clause: the section holding role-less cards is no container"},
	{Prep: `clickKey("cards:edit:team/business"); enterKey("cards:editor:team/business", "Pro")`, Desc: "the Pro Plus card", Want: "cards:card:personal/pro plus"},
}

func TestZooNearMissCards(t *testing.T) { zooNearMiss(t, "cards", cardsNearMisses) }
