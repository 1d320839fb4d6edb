package run

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/e2e-dev/e2e/session/testfile"
)

// ParseShard reads "i/n" (1 ≤ i ≤ n), as in --shard 2/3.
func ParseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	if ok {
		i, err = strconv.Atoi(a)
		if err == nil {
			n, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("shard %q: want i/n with 1 ≤ i ≤ n, such as 1/3", s)
	}
	return i, n, nil
}

// Shard returns the tests of shard i of n, in suite order. Every test is in
// exactly one shard, and the shards are balanced by the durations the store
// remembers (longest first, each to the shard with the least time so far); a
// test with no recorded duration counts as the mean of the known ones (one
// second when none is known). The split depends only on the tests and the
// durations, so n machines with the same database agree on it.
func Shard(tests []*testfile.Test, i, n int, durations map[string]time.Duration) []*testfile.Test {
	if n <= 1 {
		return tests
	}
	var sum time.Duration
	known := 0
	for _, t := range tests {
		if d, ok := durations[t.Name]; ok {
			sum += d
			known++
		}
	}
	guess := time.Second
	if known > 0 {
		guess = sum / time.Duration(known)
	}
	cost := make([]time.Duration, len(tests))
	order := make([]int, len(tests))
	for k, t := range tests {
		order[k] = k
		if d, ok := durations[t.Name]; ok {
			cost[k] = d
		} else {
			cost[k] = guess
		}
		// Every test costs something, so that zero durations still spread.
		cost[k] = max(cost[k], time.Millisecond)
	}
	sort.SliceStable(order, func(a, b int) bool {
		ta, tb := tests[order[a]], tests[order[b]]
		if cost[order[a]] != cost[order[b]] {
			return cost[order[a]] > cost[order[b]]
		}
		if ta.Name != tb.Name {
			return ta.Name < tb.Name
		}
		return ta.ShownFile() < tb.ShownFile()
	})
	load := make([]time.Duration, n)
	shard := make([]int, len(tests))
	for _, k := range order {
		best := 0
		for s := 1; s < n; s++ {
			if load[s] < load[best] {
				best = s
			}
		}
		load[best] += cost[k]
		shard[k] = best
	}
	var out []*testfile.Test
	for k, t := range tests {
		if shard[k] == i-1 {
			out = append(out, t)
		}
	}
	return out
}

// Filter keeps the tests whose name matches grep (nil keeps all) and does
// not match invert (nil drops none).
func Filter(tests []*testfile.Test, grep, invert *regexp.Regexp) []*testfile.Test {
	var out []*testfile.Test
	for _, t := range tests {
		if grep != nil && !grep.MatchString(t.Name) {
			continue
		}
		if invert != nil && invert.MatchString(t.Name) {
			continue
		}
		out = append(out, t)
	}
	return out
}
