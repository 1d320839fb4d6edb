package agent

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
)

// The choose_element tool: the LLM locator's only tool. Its description and
// JSON schema sit beside this file, in tools/.
var (
	//go:embed tools/choose_element.md
	chooseElementDoc string
	//go:embed tools/choose_element.json
	chooseElementSchema []byte
)

// ChooseElement is the name of the locator's tool.
const ChooseElement = "choose_element"

// chooseElementTool is the tool as offered to the model. The schema keeps
// its property order (reasoning, ref, attributes, related) on the wire, so
// that the model writes its classifications last, after reasoning and
// target (seed 001).
func chooseElementTool() (Tool, error) {
	params, err := orderedSchema(chooseElementSchema)
	if err != nil {
		return Tool{}, fmt.Errorf("%s schema: %w", ChooseElement, err)
	}
	return Tool{Name: ChooseElement, Description: strings.TrimSpace(chooseElementDoc), Parameters: params}, nil
}

// orderedSchema decodes a JSON schema's top level only, keeping each value
// as raw JSON so that nested key order survives marshalling.
func orderedSchema(b []byte) (map[string]any, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		return nil, err
	}
	out := make(map[string]any, len(top))
	for k, v := range top {
		var b bytes.Buffer
		if err := json.Compact(&b, v); err != nil {
			return nil, err
		}
		out[k] = json.RawMessage(b.Bytes())
	}
	return out, nil
}

// chooseElementArgs are the tool's arguments. Attributes are decoded loosely:
// a model may write numbers or booleans.
type chooseElementArgs struct {
	Reasoning  string         `json:"reasoning"`
	Ref        string         `json:"ref"`
	Attributes map[string]any `json:"attributes"`
	Related    []struct {
		Relation string `json:"relation"`
		Role     string `json:"role"`
		Name     any    `json:"name"`
	} `json:"related"`
}

// answer is a validated choose_element call.
type answer struct {
	args chooseElementArgs
	node *ax.Node // nil when the model said nothing fits
}

// readChoice validates a response to a forced choose_element call against
// the snapshot. Its error is a sentence fit to show the model.
func readChoice(r *Response, s *ax.Snapshot) (answer, error) {
	var a answer
	tc, err := onlyCall(r, ChooseElement)
	if err != nil {
		return a, err
	}
	if err := DecodeArguments(tc, &a.args); err != nil {
		return a, err
	}
	ref := normalizeRef(a.args.Ref)
	a.args.Ref = ref
	if ref == "" {
		return a, nil
	}
	if a.node = s.Find(ref); a.node == nil {
		return a, fmt.Errorf("ref %q is not in the snapshot; copy a ref from it, or give an empty ref if nothing fits", clip(ref, 100))
	}
	return a, nil
}

// normalizeRef accepts "e12", "[ref=e12]" and "ref=e12".
func normalizeRef(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	s = strings.TrimPrefix(s, "ref=")
	return strings.TrimSpace(s)
}

// relations maps the words a model may use to the relations locate.Check knows.
var relations = map[string]string{
	"in": "in", "inside": "in", "within": "in", "in nth": "in nth",
	"has": "has", "with": "has", "contains": "has",
	"next to": "next to", "beside": "next to", "near": "next to",
	"above": "above", "below": "below", "under": "below",
	"left of": "left of", "right of": "right of",
	"nth": "nth",
}

var ordinals = map[string]string{
	"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5",
	"sixth": "6", "seventh": "7", "eighth": "8", "ninth": "9", "tenth": "10", "last": "-1",
}

// rawIntent is what the model said it relied on, normalised but not yet
// checked: attribute keys lower case ("colour" is "color"), values as
// strings, relations among the known ones. Unknown relations are reported
// in dropped.
func (a answer) rawIntent() (in session.Intent, dropped []string) {
	in.Attributes = map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(a.args.Attributes)) {
		v := scalar(a.args.Attributes[k])
		k = strings.ToLower(strings.TrimSpace(k))
		if k == "colour" {
			k = "color"
		}
		if k == "" || v == "" {
			continue
		}
		in.Attributes[k] = v
	}
	for _, r := range a.args.Related {
		rel, ok := relations[strings.ToLower(strings.TrimSpace(r.Relation))]
		name := strings.TrimSpace(scalar(r.Name))
		if !ok {
			dropped = append(dropped, fmt.Sprintf("relation %q (unknown)", r.Relation))
			continue
		}
		if rel == "nth" || rel == "in nth" {
			if o, ok := ordinals[strings.ToLower(name)]; ok {
				name = o
			}
			if _, err := strconv.Atoi(name); err != nil {
				dropped = append(dropped, fmt.Sprintf("%s %q (not a number)", rel, name))
				continue
			}
		}
		in.Related = append(in.Related, session.Relation{Relation: rel, Role: strings.TrimSpace(r.Role), Name: name})
	}
	return in, dropped
}

// scalar is a JSON value as a string: strings as they are, numbers and
// booleans in their JSON form, null as "".
func scalar(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return strings.TrimSpace(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
