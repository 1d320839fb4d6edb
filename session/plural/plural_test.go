package plural

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Count(0, "step"), "0 steps"},
		{Count(1, "step"), "1 step"},
		{Count(2, "step"), "2 steps"},
		{Count(1, "test file"), "1 test file"},
		{Count(3, "test file"), "3 test files"},
		{Count(1, "entry", "entries"), "1 entry"},
		{Count(2, "entry", "entries"), "2 entries"},
		{Count(-1, "row"), "-1 row"},
		{Word(1, "test"), "test"},
		{Word(12, "test"), "tests"},
		{Word(2, "match", "matches"), "matches"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
