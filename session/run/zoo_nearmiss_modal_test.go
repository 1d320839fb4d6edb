package run

import "testing"

// The profile card's near misses: the display name "Ann Lee", "Edit name"
// and "Share" buttons, a status line; the "Edit display name" dialog (a
// Name field, Cancel, Save, a × close) and the Share popover (Copy link)
// exist only while open.
const (
	modalOpen  = `clickKey("modal:open")`
	modalShare = `clickKey("modal:share")`
	modalSaved = `clickKey("modal:open"); clickKey("modal:save")`
)

var modalNearMisses = []nearMiss{
	// "Display name" labels the value "Ann Lee": the display name is the
	// value, not its label
	{Desc: "the display name", Want: "modal:value"},
	// closed: the dialog's controls are not there to pick
	{Desc: "the Close button", Want: nearMissNone},
	{Desc: "the Save button", Want: nearMissNone},
	{Desc: "the Name field", Want: nearMissNone},
	{Desc: "the Copy link button", Want: nearMissNone},
	{Desc: "the Edit name button", Want: "modal:open"},
	{Desc: "the Share button", Want: "modal:share"},
	{Desc: `the "Ann Lee" text`, Want: "modal:value"},
	// open: the dialog's own controls
	{Prep: modalOpen, Desc: "the Close button", Want: "modal:close"},
	// a × in a dialog closes it: it is no Delete or Remove button
	{Prep: modalOpen, Desc: "the Delete button", Want: nearMissNone},
	{Prep: modalOpen, Desc: "the Remove button", Want: nearMissNone},
	{Prep: modalOpen, Desc: "the Save button", Want: "modal:save"},
	{Prep: modalOpen, Desc: "the Cancel button", Want: "modal:cancel"},
	{Prep: modalOpen, Desc: "the Name field", Want: "modal:name"},
	{Prep: modalOpen, Desc: "the Save changes button", Want: nearMissNone},
	// divsoup's dialog is a fixed div classed "overlay-box" whose first text
	// is its title: a dialog by its class words
	{Prep: modalOpen, Desc: "the Save button in the Edit display name dialog", Want: "modal:save"},
	{Prep: modalOpen, Desc: "the Edit display name dialog", Want: "modal:dialog"},
	{Prep: modalOpen, Desc: "the dialog", Want: "modal:dialog"},
	{Prep: modalOpen, Desc: "the Rename dialog", Want: nearMissNone},
	// a second overlay classed "modal" reading the same title: where the
	// dialog has its role it is the dialog (semantic's <dialog> makes the
	// rest of the page inert: the look-alike is not there); by class
	// words alone (divsoup) the two are ambiguous
	{Prep: modalOpen + "; " + modalLookalike, Desc: "the Edit display name dialog", Style: "semantic", Want: "modal:dialog"},
	{Prep: modalOpen + "; " + modalLookalike, Desc: "the Edit display name dialog", Style: "library", Want: "modal:dialog"},
	{Prep: modalOpen + "; " + modalLookalike, Desc: "the Edit display name dialog", Style: "webcomponents", Want: "modal:dialog"},
	{Prep: modalOpen + "; " + modalLookalike, Desc: "the Edit display name dialog", Style: "divsoup", Want: nearMissAmbiguous},
	// an overlay classed "popup" reading "Share": the popover named Share
	// (semantic, webcomponents) is the Share dialog; with no dialog role on
	// the page (divsoup, library) the class words say it
	{Prep: modalShare + "; " + modalSharePopup, Desc: "the Share dialog", Style: "semantic", Want: "modal:popover"},
	{Prep: modalShare + "; " + modalSharePopup, Desc: "the Share dialog", Style: "webcomponents", Want: "modal:popover"},
	{Prep: modalShare + "; " + modalSharePopup, Desc: "the Share dialog", Style: "divsoup", Want: "modal:lookalike"},
	{Prep: modalShare + "; " + modalSharePopup, Desc: "the Share dialog", Style: "library", Want: "modal:lookalike"},
	// the popover is open, the dialog is not
	{Prep: modalShare, Desc: "the Copy link button", Want: "modal:copy-link"},
	{Prep: modalShare, Desc: "the Close button", Want: nearMissNone},
	// the popover is named "Share" too (semantic, webcomponents): the button is the button
	{Prep: modalShare, Desc: "the Share button", Want: "modal:share"},
	{Prep: modalShare, Desc: "the Copy button", Want: "modal:copy-link"},
	{Prep: modalShare, Desc: "the Copy link menu item", Want: "modal:copy-link"},
	{Prep: modalShare, Desc: "the Copy link checkbox", Want: nearMissNone},
	// open: the × is the close button by its symbol too
	{Prep: modalOpen, Desc: "the × button", Want: "modal:close"},
	// saved: "Ann Lee" is the value, and a word of "Saved: Ann Lee"
	{Prep: modalSaved, Desc: `the "Ann Lee" text`, Want: "modal:value"},
	{Prep: modalSaved, Desc: `the "Saved: Ann Lee" text`, Want: "modal:status"},
	{Prep: modalSaved, Desc: "the Save button", Want: nearMissNone},
	// the status line: role=status (semantic, webcomponents), role=alert
	// (library: a live region), a div classed "pf-msg" (divsoup)
	{Desc: "the status message", Want: "modal:status"},
	{Prep: modalSaved, Desc: "the status message", Want: "modal:status"},
	{Prep: modalSaved, Desc: "the Saved message", Want: "modal:status"},
	// a second text classed "pf-msg": the role says which is the status;
	// with class words only (divsoup), no pick
	{Prep: modalSecondMsg, Desc: "the status message", Style: "semantic", Want: "modal:status"},
	{Prep: modalSecondMsg, Desc: "the status message", Style: "library", Want: "modal:status"},
	{Prep: modalSecondMsg, Desc: "the status message", Style: "webcomponents", Want: "modal:status"},
	{Prep: modalSecondMsg, Desc: "the status message", Style: "divsoup", Want: nearMissAmbiguous},
	// class words never beat a name: the text reading "Draft kept" is it
	{Prep: modalSecondMsg, Desc: `the "Nothing saved yet" text`, Want: "modal:status"},
}

// Preps that add look-alikes to the modal page.
const (
	// a fixed div classed "modal" with the dialog's title
	modalLookalike = `const d = document.createElement('div');
d.className = 'modal';
d.style.cssText = 'position:fixed;left:0;top:0;width:200px';
d.innerHTML = '<div>Edit display name</div><p>Tips</p>';
document.body.append(d)`
	// a fixed div classed "popup" reading "Share"
	modalSharePopup = `const d = document.createElement('div');
d.className = 'popup';
d.setAttribute('data-zoo-key', 'modal:lookalike');
d.style.cssText = 'position:fixed;left:0;top:0;width:200px';
d.innerHTML = '<div>Share</div><p>Pick a network</p>';
document.body.append(d)`
	// a second div classed like divsoup's status line, reading "Draft kept"
	modalSecondMsg = `const d = document.createElement('div');
d.className = 'pf-msg';
d.textContent = 'Draft kept';
document.querySelector('[data-zoo="modal"]').append(d)`
)

func TestZooNearMissModal(t *testing.T) { zooNearMiss(t, "modal", modalNearMisses) }
