package locate

import (
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
)

// Sections and cards on markup with no roles (issue 13): a role-less
// section (the snapshot's role "section") known by its title, a card that
// is no collection of cards, chained "in" clauses over distinct containers,
// and text in a role=menu list as a menu item.

// plan is a role-less card (role "item") with a title, a price and a
// Delete and a More button.
func plan(title, price string) (*ax.Node, *ax.Node, *ax.Node) {
	del := el("button", "", hint("Delete · trash"))
	more := el("button", "", hint("More actions · dots horizontal"))
	return el("item", "", kids(txt(title), txt(price), del, more)), del, more
}

func TestSectionsKnownByTitle(t *testing.T) {
	pStarter, pStarterDel, _ := plan("Starter", "Free")
	pTeam, pTeamDel, _ := plan("Team", "$9 / month") // a card titled as the other section
	tStarter, tStarterDel, _ := plan("Starter", "$5 / seat")
	tEnt, tEntDel, tEntMore := plan("Enterprise", "Contact us")
	personal := el("section", "", kids(txt("Personal"), pStarter, pTeam))
	team := el("section", "", kids(el("heading", "Team", level(2)), tStarter, tEnt))
	headerMore := el("button", "More")
	s := snap(el("banner", "", kids(headerMore)), el("main", "", kids(personal, team)))
	runHintCases(t, "sections", s, []hintCase{
		{desc: "the Personal section", want: personal},
		{desc: "the Team section", want: team},
		{desc: "the Team card", want: pTeam},
		{desc: "the Delete button in the Team card", want: pTeamDel},
		{desc: "the Delete button in the Starter card in the Team section", want: tStarterDel},
		{desc: "the Delete button in the Starter card in the Personal section", want: pStarterDel},
		{desc: "the Delete button in the Team card in the Personal section", want: pTeamDel},
		{desc: "the Delete button in the Enterprise card in the Team section", want: tEntDel},
		{desc: "the More button in the Enterprise card", want: tEntMore},
		{desc: "the More button in the page header", want: headerMore},
		// near misses: two Starter cards, a section is not known by its cards,
		// and one card is not both containers of a chain
		{desc: "the Delete button in the Starter card", reason: ReasonAmbiguous},
		{desc: "the Starter section", reason: ReasonNoMatch},
		{desc: "the Delete button in the Team card in the Team section", reason: ReasonNoMatch},
		{desc: "the Delete button in the Enterprise card in the Personal section", reason: ReasonNoMatch},
		{desc: "the Delete button in the Team section", reason: ReasonAmbiguous},
	})
}

func TestCardHoldsNoCards(t *testing.T) {
	// A named region holding cards is the collection, never "the Team card".
	tm := el("article", "Team", kids(el("heading", "Team", level(3)), el("button", "Delete")))
	ent := el("article", "Enterprise", kids(el("heading", "Enterprise", level(3)), el("button", "Delete")))
	region := el("region", "Team", kids(el("heading", "Team", level(2)), ent))
	s := snap(el("main", "", kids(el("region", "Personal", kids(tm)), region)))
	runHintCases(t, "regions", s, []hintCase{
		{desc: "the Team card", want: tm},
		{desc: "the Team section", want: region},
		{desc: "the Delete button in the Team card", want: tm.Children[1]},
		{desc: "the Delete button in the Enterprise card in the Team section", want: ent.Children[1]},
		// the Team card is not also the Team section of the chain
		{desc: "the Delete button in the Team card in the Team section", reason: ReasonNoMatch},
		{desc: "the Delete button in the Team card in the Personal section", want: tm.Children[1]},
	})
}

func TestCardWithFeatureItemsIsACard(t *testing.T) {
	// A card whose features are role-less entries (an item each, with an
	// info button) is still a card; the region around the cards is not one.
	feature := func(s string) *ax.Node { return el("item", "", kids(txt(s), el("button", "Info"))) }
	pro := el("article", "Pro", kids(el("heading", "Pro", level(3)), feature("10 GB"), feature("Support"), el("button", "Buy")))
	s := snap(el("main", "", kids(el("region", "Pro", kids(el("heading", "Pro", level(2)), pro)))))
	runHintCases(t, "features", s, []hintCase{
		{desc: "the Pro card", want: pro},
		{desc: "the Buy button in the Pro card", want: pro.Children[3]},
	})
}

func TestTextInAMenuListIsAMenuItem(t *testing.T) {
	// <ul role=menu><li tabindex=0>Duplicate</li>…: the role on the
	// wrapper, the entries list items; a real menu item still wins.
	dup := txt("Duplicate")
	move := txt("Move to Team")
	menu := el("menu", "", kids(el("listitem", "", kids(dup)), el("listitem", "", kids(move))))
	other := txt("Duplicate")
	s := snap(el("main", "", kids(menu, el("paragraph", "", kids(other)))))
	runHintCases(t, "menu list", s, []hintCase{
		{desc: "the Duplicate menu item", want: dup},
		{desc: "the Move to Team menu item", want: move},
		{desc: "the Move menu item", reason: ReasonNoMatch},
		{desc: "the Move to Personal menu item", reason: ReasonNoMatch},
	})
	real := el("menuitem", "Duplicate")
	s = snap(el("main", "", kids(el("menu", "", kids(el("listitem", "", kids(txt("Duplicate"))))), el("menu", "", kids(real)))))
	runHintCases(t, "menu list", s, []hintCase{{desc: "the Duplicate menu item", want: real}})
}
