package run

import "testing"

// The settings form's near misses: two checkboxes and a switch whose names
// share no word, a select and a Save button.
// settingsDivToggles: divsoup's checkboxes and switch are divs with a
// click listener only, in clickable rows; the snapshot knows them as
// clickables drawn as a checkbox or a switch, which fit a checkbox or
// switch word only with a name.
const settingsDivToggles = "divsoup: the toggles are divs drawn as a box or a pill (clickables that look like a checkbox or a switch); a loose role fit needs a name"

var settingsNearMisses = []nearMiss{
	{Desc: "the Weekly digest checkbox", Want: "settings:digest"},
	{Desc: "the Email notifications checkbox", Want: "settings:email"},
	{Desc: "the Dark mode switch", Want: "settings:dark"},
	{Desc: "the Language select", Want: "settings:language"},
	{Desc: "the Save button", Want: "settings:save"},
	// two checkboxes: no name, no pick (divsoup's boxes only look like
	// checkboxes, which needs a name to go with it)
	{Desc: "the checkbox", Want: nearMissAmbiguous, Gap: settingsDivToggles},
	{Desc: "the checkbox in the Preferences group", Style: "library", Want: nearMissAmbiguous},
	// the avatar upload: a file input named or labelled "Avatar" (hidden in
	// divsoup: its "Choose file" div stands for it), a "Choose file" button
	{Desc: "the Avatar field", Want: "settings:avatar"},
	{Desc: "the avatar upload", Want: "settings:avatar"},
	{Desc: "the Choose file button", Want: "settings:avatar"},
	{Desc: "the Avatar file input", Want: "settings:avatar"},
	// "Avatar" is a label, not a field: the text is never the upload
	{Desc: `the "Avatar" text`, Want: "settings:label:avatar"},
	// a text field "Avatar URL" starts with the name: the file input named
	// "Avatar" wins; known only by the text beside it (divsoup, library),
	// it is no better than the field's name, and the two are ambiguous
	{Prep: settingsAvatarURL, Desc: "the Avatar field", Style: "semantic", Want: "settings:avatar"},
	{Prep: settingsAvatarURL, Desc: "the Avatar field", Style: "webcomponents", Want: "settings:avatar"},
	{Prep: settingsAvatarURL, Desc: "the Avatar field", Style: "divsoup", Want: nearMissAmbiguous},
	{Prep: settingsAvatarURL, Desc: "the Avatar field", Style: "library", Want: nearMissAmbiguous},
	{Prep: settingsAvatarURL, Desc: "the Avatar URL field", Want: "settings:avatar-url"},
	{Prep: settingsAvatarURL, Desc: "the avatar upload", Want: "settings:avatar"},
	// two file inputs: each by its label, and no pick without one
	{Prep: settingsCover, Desc: "the Avatar field", Want: "settings:avatar"},
	{Prep: settingsCover, Desc: "the Cover field", Want: "settings:cover"},
	{Prep: settingsCover, Desc: "the Cover upload", Want: "settings:cover"},
	{Prep: settingsCover, Desc: "the file input", Want: nearMissAmbiguous},
	{Prep: settingsCover, Desc: "the Choose file button", Want: nearMissAmbiguous},
	// the status line: role=status (semantic, webcomponents), role=alert
	// (library: a live region), a div classed "s-msg" (divsoup)
	{Desc: "the status message", Want: "settings:status"},
	{Desc: "the status", Want: "settings:status"},
	{Desc: "the message", Want: "settings:status"},
	// a second text classed "s-msg": the role says which is the status;
	// with class words only (divsoup), no pick
	{Prep: settingsSecondMsg, Desc: "the status message", Style: "semantic", Want: "settings:status"},
	{Prep: settingsSecondMsg, Desc: "the status message", Style: "library", Want: "settings:status"},
	{Prep: settingsSecondMsg, Desc: "the status message", Style: "webcomponents", Want: "settings:status"},
	{Prep: settingsSecondMsg, Desc: "the status message", Style: "divsoup", Want: nearMissAmbiguous},
	// a "Status" label beside the status line is not the status message
	{Prep: settingsStatusLabel, Desc: "the status message", Want: "settings:status"},
	// class words never beat a name: the "Save" text is not the status
	{Desc: `the "Not saved yet" text`, Want: "settings:status"},
	// no class word says counter
	{Desc: "the counter", Want: nearMissAmbiguous},
	// a checkbox word for the switch and a switch word for a checkbox fit
	// loosely, as the roles do
	{Desc: "the Dark mode checkbox", Want: "settings:dark"},
	{Desc: "the Weekly digest toggle", Want: "settings:digest"},
	// role-less clickables beside the controls: a clickable "Save
	// settings" next to Save, a plain text "Save", two clickable "Delete"s
	// in two cards
	{Prep: settingsTrapSave, Desc: "the Save button", Want: "settings:save"},
	{Prep: settingsTrapSave, Desc: "the Save settings button", Want: "trap:save-settings"},
	{Prep: settingsTrapSave, Desc: "click Save", Want: "settings:save"},
	{Prep: settingsTrapText, Desc: "the Save button", Want: "settings:save"},
	{Prep: settingsTrapCards, Desc: "the Delete button", Want: nearMissAmbiguous},
	{Prep: settingsTrapCards, Desc: "the Delete link", Want: nearMissAmbiguous},
	{Prep: settingsTrapNamedCards, Desc: "the Delete button in the Beta card", Want: "trap:delete:Beta"},
	{Prep: settingsTrapNamedCards, Desc: "the Delete button", Want: nearMissAmbiguous},
	// a clickable is no checkbox unless drawn as one
	{Prep: settingsTrapSave, Desc: "the Save settings checkbox", Want: nearMissNone},
}

// Preps that add look-alikes to the settings page (with ground-truth keys
// of their own).
const (
	// a text field "Avatar URL" before the upload
	settingsAvatarURL = `const r = document.querySelector('[data-zoo="settings"]');
const d = document.createElement('div');
d.innerHTML = '<label for="zoo-aurl">Avatar URL</label><input id="zoo-aurl" type="text" data-zoo-key="settings:avatar-url">';
r.insertBefore(d, r.lastElementChild);`
	// a second upload, "Cover", made like the style's avatar upload
	settingsCover = `const r = document.querySelector('[data-zoo="settings"]');
const a = r.lastElementChild;
const rekey = (root) => { for (const el of root.querySelectorAll('*')) {
  const k = el.getAttribute('data-zoo-key');
  if (k === 'settings:avatar') el.setAttribute('data-zoo-key', 'settings:cover'); else if (k) el.removeAttribute('data-zoo-key');
  if (el.id) el.id = 'zoo-cover';
  if (el.htmlFor) el.htmlFor = 'zoo-cover';
  if (el.getAttribute('aria-label') === 'Avatar') el.setAttribute('aria-label', 'Cover');
  if (el.getAttribute('label') === 'Avatar') el.setAttribute('label', 'Cover');
  for (const n of el.childNodes) if (n.nodeType === 3 && n.data === 'Avatar') n.data = 'Cover';
  if (el.shadowRoot) rekey(el.shadowRoot);
} };
let c;
if (a.localName === 'zoo-upload') { c = document.createElement('zoo-upload'); c.setAttribute('label', 'Cover'); r.append(c); rekey(c.shadowRoot); }
else { c = a.cloneNode(true); rekey(c); r.append(c); }`
	// a second div classed like the style's status line, reading "Draft kept"
	settingsSecondMsg = `const r = document.querySelector('[data-zoo="settings"]');
const d = document.createElement('div');
d.className = r.getAttribute('data-style') === 'divsoup' ? 's-msg' : 'msg';
d.textContent = 'Draft kept';
r.append(d);`
	// a "Status" label just before the status line
	settingsStatusLabel = `const s = zooEl('settings:status');
const l = document.createElement('span');
l.className = 's-lbl';
l.textContent = 'Status';
(s.closest('[role=alert]') || s).before(l);`
	settingsTrapSave       = `addClickable("settings:save", "Save settings", "trap:save-settings")`
	settingsTrapText       = `addClickable("settings:save", "Save", "trap:save-text", true)`
	settingsTrapCards      = `addCards("settings:save", ["Alpha", "Beta"], false)`
	settingsTrapNamedCards = `addCards("settings:save", ["Alpha", "Beta"], true)`
)

func TestZooNearMissSettings(t *testing.T) { zooNearMiss(t, "settings", settingsNearMisses) }
