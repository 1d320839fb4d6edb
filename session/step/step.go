// Package step defines step commands, the one grammar that the agent, the
// store, the studio and test files share.
//
// A step command reads like a command line:
//
//	--step-type CLICK --description "the destination field labeled Where to" --cache-id db9a12
//
// [Parse] turns such a line into a [Step] and [Step.String] prints a Step in
// the canonical form, so that Parse(s.String()) == s for every valid Step.
// What each step type needs is described by the [Types] and [Expectations]
// tables; [Step.Validate] enforces them.
//
// Variables such as {{ secret.PASSWORD }} are kept verbatim in descriptions
// and values: this package never substitutes them.
package step

import (
	"strings"
	"time"
)

// Type is the kind of a step, written in upper case in step commands.
type Type string

// The step types. Every constant has an entry in [Types].
const (
	Navigate     Type = "NAVIGATE"     // open the URL in Value
	Click        Type = "CLICK"        // click the element in Description
	DblClick     Type = "DBLCLICK"     // double-click the element in Description
	RightClick   Type = "RIGHTCLICK"   // right-click the element in Description (a context menu)
	TypeText     Type = "TYPE"         // type Value into the field in Description
	Clear        Type = "CLEAR"        // empty the text field in Description
	Select       Type = "SELECT"       // choose option Value in the select in Description
	AddOption    Type = "ADDOPTION"    // choose option Value too in the multi-select in Description, keeping the others
	RemoveOption Type = "REMOVEOPTION" // unchoose option Value in the multi-select in Description, keeping the others
	Press        Type = "PRESS"        // press key Value, in the element in Description if given
	Hover        Type = "HOVER"        // move the pointer over the element in Description
	Drag         Type = "DRAG"         // drag the element in Description onto the element described in Value
	Upload       Type = "UPLOAD"       // choose the files in Value (one path a line) in the file input in Description
	Check        Type = "CHECK"        // turn on the checkbox, radio or switch in Description
	Uncheck      Type = "UNCHECK"      // turn off the checkbox or switch in Description
	Scroll       Type = "SCROLL"       // scroll the element in Description into view
	Wait         Type = "WAIT"         // wait for the element in Description, or for Timeout
	Accept       Type = "ACCEPT"       // answer the page's next dialog with OK, a prompt with Value if given
	Dismiss      Type = "DISMISS"      // answer the page's next dialog with Cancel
	Expect       Type = "EXPECT"       // a deterministic check, of the kind in Step.Expect
	Assert       Type = "ASSERT"       // a check in natural language, judged by the model
	Act          Type = "ACT"          // a goal in natural language, reached by the agent
)

// ExpectKind is what an EXPECT step checks, written in lower case.
type ExpectKind string

// The kinds of EXPECT step. Every constant has an entry in [Expectations].
const (
	ExpectVisible ExpectKind = "visible" // the element in Description is visible
	ExpectHidden  ExpectKind = "hidden"  // the element in Description is hidden or absent
	ExpectText    ExpectKind = "text"    // the element's text matches Value
	ExpectValue   ExpectKind = "value"   // the form field's value matches Value
	ExpectURL     ExpectKind = "url"     // the page URL matches Value
	ExpectTitle   ExpectKind = "title"   // the page title matches Value
	ExpectDialog  ExpectKind = "dialog"  // the message of a dialog the page opened matches Value
)

// Match says how an EXPECT step compares the actual text with Value. The zero
// value is an exact match; it is the only kind a step command spells
// without a --match flag.
//
// An exact URL match compares the whole URL, or the path, query and fragment
// when Value starts with "/"; in a URL, * matches any run of characters.
type Match string

// The ways to match. Only kinds whose [ExpectSpec] has Match set take one.
const (
	MatchExact    Match = ""         // the text equals Value (after trimming surrounding space)
	MatchContains Match = "contains" // the text contains Value
)

// Step is one step command.
//
// A Step is comparable: two steps are the same command if they are ==.
type Step struct {
	// Type is the step type; it decides which other fields apply (see [Types]).
	Type Type
	// Description names the target element in plain words ("the Sign in
	// button"), or holds the goal of an ACT step or the check of an ASSERT step.
	Description string
	// Value is the text to type, the option to select, the key to press, the
	// URL to open, the files to upload (one path a line, relative to the
	// test file) or the expected text of an EXPECT step.
	Value string
	// Expect is what an EXPECT step checks; empty for every other type.
	Expect ExpectKind
	// Match is how an EXPECT step compares text with Value.
	Match Match
	// Timeout bounds the step. For a WAIT step without a Description it is
	// the time to wait. Zero means the configured default.
	Timeout time.Duration
	// CacheID names the element cache row recorded for this step, if any.
	CacheID string
}

// TargetsElement reports whether the step acts on, or checks, an element
// that has to be located on the page from its Description.
func (s Step) TargetsElement() bool {
	if strings.TrimSpace(s.Description) == "" {
		return false
	}
	f, ok := s.fields()
	return ok && f.Element
}

// fields returns the field needs of the step's type, taken from
// Expectations for an EXPECT step. ok is false if the type or the
// expectation kind is unknown.
func (s Step) fields() (f Fields, ok bool) {
	spec, ok := Types[s.Type]
	if !ok {
		return Fields{}, false
	}
	if !spec.Expect {
		return spec.Fields, true
	}
	es, ok := Expectations[s.Expect]
	return es.Fields, ok
}
