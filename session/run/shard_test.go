package run

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/testfile"
)

func TestParseShard(t *testing.T) {
	for _, ok := range []string{"1/1", "1/3", "3/3", " 2/5 "} {
		if _, _, err := ParseShard(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "0/3", "4/3", "1/0", "a/b", "1", "1/3/4", "-1/3"} {
		if _, _, err := ParseShard(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestShardsPartitionTheSuiteAndBalanceDurations(t *testing.T) {
	var tests []*testfile.Test
	durations := map[string]time.Duration{}
	for i := range 20 {
		name := fmt.Sprintf("test %02d", i)
		tests = append(tests, &testfile.Test{Name: name, File: name + ".e2e.yaml"})
		if i < 17 { // three tests have never run
			durations[name] = time.Duration(1+i*i%7) * time.Second
		}
	}
	durations["test 00"] = 20 * time.Second // one long test
	var sum time.Duration
	for _, d := range durations {
		sum += d
	}
	mean := sum / time.Duration(len(durations)) // what an unknown test counts as
	cost := func(name string) time.Duration {
		if d, ok := durations[name]; ok {
			return d
		}
		return mean
	}
	for _, n := range []int{1, 2, 3, 7, 25} {
		seen := map[string]int{}
		var loads []time.Duration
		for i := 1; i <= n; i++ {
			shard := Shard(tests, i, n, durations)
			again := Shard(tests, i, n, durations)
			if fmt.Sprint(names(shard)) != fmt.Sprint(names(again)) {
				t.Errorf("%d/%d is not stable", i, n)
			}
			var load time.Duration
			last := -1
			for _, tt := range shard {
				seen[tt.Name]++
				load += cost(tt.Name)
				k := index(tests, tt)
				if k < last {
					t.Errorf("%d/%d is not in suite order", i, n)
				}
				last = k
			}
			loads = append(loads, load)
		}
		for _, tt := range tests {
			if seen[tt.Name] != 1 {
				t.Errorf("n=%d: %s is in %d shards", n, tt.Name, seen[tt.Name])
			}
		}
		if n == 3 {
			// Longest first, each to the least loaded shard: the loads
			// differ by at most the longest test after the first.
			lo, hi := loads[0], loads[0]
			for _, l := range loads {
				lo, hi = min(lo, l), max(hi, l)
			}
			if hi-lo > 7*time.Second {
				t.Errorf("3 shards unbalanced: %v", loads)
			}
		}
	}
	// With no durations at all, tests spread by count.
	for i := 1; i <= 4; i++ {
		if got := len(Shard(tests, i, 4, nil)); got != 5 {
			t.Errorf("shard %d/4 of 20 unknown tests has %d", i, got)
		}
	}
}

func names(ts []*testfile.Test) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

func index(ts []*testfile.Test, t *testfile.Test) int {
	for i, x := range ts {
		if x == t {
			return i
		}
	}
	return -1
}

func TestFilterByName(t *testing.T) {
	tests := []*testfile.Test{{Name: "sign in"}, {Name: "sign out"}, {Name: "cart"}}
	got := Filter(tests, regexp.MustCompile("^sign"), regexp.MustCompile("out$"))
	if fmt.Sprint(names(got)) != "[sign in]" {
		t.Errorf("got %v", names(got))
	}
	if len(Filter(tests, nil, nil)) != 3 {
		t.Error("no filter dropped tests")
	}
}
