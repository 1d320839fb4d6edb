package run

import "testing"

// The card grid's near misses. Personal holds Starter, Pro and Pro Plus,
// Team holds Starter, Business and Enterprise: two cards read "Starter",
// "Pro" is a word of "Pro Plus". Every card has the same four icon-only
// buttons (Favourite, Edit, Delete, More actions) and no name but its text.

// Preps for the traps below: a section's title given to a card, a "Pro"
// family, a More button in the page header.
const (
	cardsTeamCard   = `clickKey("cards:edit:personal/pro plus"); enterKey("cards:editor:personal/pro plus", "Team")`
	cardsProFamily  = `clickKey("cards:edit:personal/pro plus"); enterKey("cards:editor:personal/pro plus", "Pro Max"); clickKey("cards:more:personal/pro"); clickKey("cards:duplicate:personal/pro")`
	cardsProTie     = cardsProFamily + `; clickKey("cards:edit:team/business"); enterKey("cards:editor:team/business", "Pro")`
	cardsHeaderMore = `const b = document.createElement('button'); b.setAttribute('aria-label', 'More'); b.setAttribute('data-zoo-key', 'cards:header-more'); b.textContent = '\u22ef'; document.querySelector('header').append(b)`
)

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
	{Desc: "the Starter card in the Team section", Want: "cards:card:team/starter"},
	{Desc: "the Delete button in the Starter card in the Team section", Want: "cards:delete:team/starter"},
	{Desc: "the Delete button in the Starter card in the Personal section", Want: "cards:delete:personal/starter"},
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
	{Prep: `clickKey("cards:more:personal/pro")`, Desc: "the Duplicate menu item", Want: "cards:duplicate:personal/pro"},
	{Prep: `clickKey("cards:more:personal/pro")`, Desc: "the Move to Team menu item", Want: "cards:move:personal/pro"},
	{Prep: `clickKey("cards:more:personal/pro")`, Desc: "the Move to Personal menu item", Want: nearMissNone},
	// with the menu closed there is no menu item
	{Desc: "the Duplicate menu item", Want: nearMissNone},
	// a duplicate reads "Pro copy": "Pro" still names the original
	{Prep: `clickKey("cards:more:personal/pro"); clickKey("cards:duplicate:personal/pro")`, Desc: "the Pro card", Want: "cards:card:personal/pro"},
	{Prep: `clickKey("cards:more:personal/pro"); clickKey("cards:duplicate:personal/pro")`, Desc: "the Delete button in the Pro copy card", Want: "cards:delete:personal/pro copy"},
	// Business renamed "Pro": two cards read "Pro", in two sections
	{Prep: `clickKey("cards:edit:team/business"); enterKey("cards:editor:team/business", "Pro")`, Desc: "the Pro card", Want: nearMissAmbiguous},
	{Prep: `clickKey("cards:edit:team/business"); enterKey("cards:editor:team/business", "Pro")`, Desc: "the Delete button in the Pro card in the Team section", Want: "cards:delete:team/pro"},
	{Prep: `clickKey("cards:edit:team/business"); enterKey("cards:editor:team/business", "Pro")`, Desc: "the Pro Plus card", Want: "cards:card:personal/pro plus"},
	// the lone card of a section is still a card, and its section is known
	{Prep: `clickKey("cards:delete:team/starter"); clickKey("cards:delete:team/business")`, Desc: "the More button in the Enterprise card", Want: "cards:more:team/enterprise"},
	{Prep: `clickKey("cards:delete:team/starter"); clickKey("cards:delete:team/business")`, Desc: "the Enterprise card in the Team section", Want: "cards:card:team/enterprise"},
	{Prep: `clickKey("cards:delete:team/starter"); clickKey("cards:delete:team/business")`, Desc: "the Enterprise card in the Personal section", Want: nearMissNone},
	{Prep: `clickKey("cards:delete:team/starter"); clickKey("cards:delete:team/business")`, Desc: "the Team section", Want: "cards:section:team"},
	// sections are known by their title, not by the cards in them
	{Desc: "the Personal section", Want: "cards:section:personal"},
	{Desc: "the Team section", Want: "cards:section:team"},
	{Desc: "the Starter section", Want: nearMissNone},
	{Desc: "the Delete button in the Business card in the Personal section", Want: nearMissNone},
	{Desc: "the Delete button in the Team section", Want: nearMissAmbiguous},
	// a card titled as a section is: the role word tells them apart
	{Prep: cardsTeamCard, Desc: "the Team section", Want: "cards:section:team"},
	{Prep: cardsTeamCard, Desc: "the Team card", Want: "cards:card:personal/team"},
	{Prep: cardsTeamCard, Desc: "the Delete button in the Team card", Want: "cards:delete:personal/team"},
	{Prep: cardsTeamCard, Desc: "the Delete button in the Team card in the Personal section", Want: "cards:delete:personal/team"},
	{Prep: cardsTeamCard, Desc: "the Delete button in the Team card in the Team section", Want: nearMissNone},
	{Prep: cardsTeamCard, Desc: "the Delete button in the Enterprise card in the Team section", Want: "cards:delete:team/enterprise"},
	// "Pro" beside "Pro Max" and "Pro copy": the whole title wins; two "Pro" tie
	{Prep: cardsProFamily, Desc: "the Pro card", Want: "cards:card:personal/pro"},
	{Prep: cardsProFamily, Desc: "the Favourite button in the Pro card", Want: "cards:favourite:personal/pro"},
	{Prep: cardsProFamily, Desc: "the Pro copy card", Want: "cards:card:personal/pro copy"},
	{Prep: cardsProFamily, Desc: "the Edit button in the Pro Max card", Want: "cards:edit:personal/pro max"},
	{Prep: cardsProFamily, Desc: "the Pro Plus card", Want: nearMissNone},
	{Prep: cardsProTie, Desc: "the Favourite button in the Pro card", Want: nearMissAmbiguous},
	{Prep: cardsProTie, Desc: "the Favourite button in the Pro card in the Personal section", Want: "cards:favourite:personal/pro"},
	{Prep: cardsProTie, Desc: "the Favourite button in the Pro copy card", Want: "cards:favourite:personal/pro copy"},
	// a More button in the page header beside one per card
	{Prep: cardsHeaderMore, Desc: "the More button in the Enterprise card", Want: "cards:more:team/enterprise"},
	{Prep: cardsHeaderMore, Desc: "the More button in the Pro card in the Personal section", Want: "cards:more:personal/pro"},
	{Prep: cardsHeaderMore, Desc: "the More button in the page header", Want: "cards:header-more"},
}

func TestZooNearMissCards(t *testing.T) { zooNearMiss(t, "cards", cardsNearMisses) }
