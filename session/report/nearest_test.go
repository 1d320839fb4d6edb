package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session"
)

// TestJSONCarriesNearestAndNarrow: a step's advice reaches the JSON
// report as nearest and narrow.
func TestJSONCarriesNearestAndNarrow(t *testing.T) {
	in := sample(t)
	bad := &in.Report.Tests[3].Steps[1]
	bad.Nearest = []session.NearElement{{Element: `button "Sign in"`, Ref: "e27", Score: 0.87, Count: 1}}
	bad.Narrow = []session.Narrowing{{Element: `button "Menu"`, Ref: "e30", Add: "in the Alice row", Description: "the Menu button in the Alice row"}}
	path := filepath.Join(t.TempDir(), "r.json")
	if err := WriteJSON(path, in); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	for _, want := range []string{`"nearest": [`, `"element": "button \"Sign in\""`, `"score": 0.87`, `"narrow": [`, `"add": "in the Alice row"`, `"description": "the Menu button in the Alice row"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("no %s in %s", want, b)
		}
	}
	var j JSON
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	st := j.Tests[3].Steps[1]
	if len(st.Nearest) != 1 || st.Nearest[0].Score != 0.87 || len(st.Narrow) != 1 || st.Narrow[0].Ref != "e30" {
		t.Errorf("step %+v", st)
	}
	if strings.Count(string(b), `"nearest"`) != 1 {
		t.Errorf("steps with no advice carry an empty nearest: %s", b)
	}
}
