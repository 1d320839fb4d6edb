package browser

import (
	"strings"
	"testing"
	"time"
)

func TestNotSettledCountsReadInTheSingular(t *testing.T) {
	one := (&NotSettledError{Waited: time.Second, Inflight: 1, Pending: []string{"GET /api"}, Timers: 1}).Error()
	for _, want := range []string{"1 request still in flight (GET /api)", "1 short timer keeps being scheduled"} {
		if !strings.Contains(one, want) {
			t.Errorf("%q lacks %q", one, want)
		}
	}
	two := (&NotSettledError{Waited: time.Second, Inflight: 2, Timers: 2}).Error()
	for _, want := range []string{"2 requests still in flight", "2 short timers keep being scheduled"} {
		if !strings.Contains(two, want) {
			t.Errorf("%q lacks %q", two, want)
		}
	}
	if m := (&NotSettledError{Waited: time.Second, Mutations: 1}).Error(); !strings.Contains(m, "(1 mutation)") {
		t.Errorf("%q lacks (1 mutation)", m)
	}
}
