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
	{Prep: modalOpen, Desc: "the Save button", Want: "modal:save"},
	{Prep: modalOpen, Desc: "the Cancel button", Want: "modal:cancel"},
	{Prep: modalOpen, Desc: "the Name field", Want: "modal:name"},
	{Prep: modalOpen, Desc: "the Save changes button", Want: nearMissNone},
	{Prep: modalOpen, Desc: "the Save button in the Edit display name dialog", Want: "modal:save",
		Gap: "divsoup: the dialog is a fixed div with no role; nothing but its title text makes it a dialog"},
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
}

func TestZooNearMissModal(t *testing.T) { zooNearMiss(t, "modal", modalNearMisses) }
