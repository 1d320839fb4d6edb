package agent

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The table of handlers, the order the tools are offered in, and each
// tool's schema agree: every offered tool has a handler, every handler is
// offered, and each schema's properties are the fields its handler decodes.
func TestActToolTableMatchesToolsOffered(t *testing.T) {
	offered, err := actToolsOffered()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range offered {
		names = append(names, tool.Name)
		if tool.Description == "" {
			t.Errorf("%s has no description", tool.Name)
		}
	}
	if got, want := slices.Sorted(slices.Values(names)), slices.Sorted(maps.Keys(actTools)); !slices.Equal(got, want) {
		t.Errorf("offered %v, handlers %v", got, want)
	}
	args := map[string]any{ExecuteStep: executeStepArgs{}, SpliceGeneratedSteps: spliceArgs{}, Finish: finishArgs{}}
	for name, v := range args {
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(*actTools[name].schema, &schema); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var fields []string
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			fields = append(fields, strings.Split(rt.Field(i).Tag.Get("json"), ",")[0])
		}
		if got, want := slices.Sorted(maps.Keys(schema.Properties)), slices.Sorted(slices.Values(fields)); !slices.Equal(got, want) {
			t.Errorf("%s: schema properties %v, handler decodes %v", name, got, want)
		}
		for _, r := range schema.Required {
			if _, ok := schema.Properties[r]; !ok {
				t.Errorf("%s: required %q is not a property", name, r)
			}
		}
	}
	if len(args) != len(actTools) {
		t.Errorf("test knows %d tools, the table has %d", len(args), len(actTools))
	}
}

// TestSystemPromptListsNewKinds checks the agent is told about the step
// types it can use in execute_step, double and right click included.
func TestSystemPromptListsNewKinds(t *testing.T) {
	p := systemPrompt()
	for _, want := range []string{"- DBLCLICK: double-click", "- RIGHTCLICK: right-click", "- UPLOAD: choose files", "- DRAG: drag an element", "- CLICK: click", "- CLEAR: empty a text field"} {
		if !strings.Contains(p, want) {
			t.Errorf("system prompt lacks %q", want)
		}
	}
}
