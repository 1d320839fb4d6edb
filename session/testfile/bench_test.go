package testfile

import (
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkParse1MB measures Parse on a valid 10 KB file (the baseline), a
// valid 1 MB one, nesting bombs of 16 KB (which the parser alone can still
// read, slowly) and 1 MB, and a 1 MB file of bad steps (the problems
// printed too). Besides time, B/op and allocs/op, it reports
// peak-heap-MB: the most heap in use during one parse, sampled every
// millisecond, over the heap in use before it.
func BenchmarkParse1MB(b *testing.B) {
	bad := "name: flood\nsteps:\n" + strings.Repeat("  - clik: the Sign in button\n", 37449)
	cases := []struct {
		name string
		src  []byte
	}{
		{"valid-10KB", bigTest(10 << 10)},
		{"valid-1MB", bigTest(MaxFileSize)},
		{"bomb-16KB", []byte("name: bomb\nsteps: " + strings.Repeat("[", 16<<10))},
		{"bomb-1MB", []byte("name: bomb\nsteps: " + strings.Repeat("[", MaxFileSize-18))},
		{"bad-steps-1MB", []byte(bad[:min(len(bad), MaxFileSize)])},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			parse := func() {
				_, err := Parse("bench.e2e.yaml", c.src)
				if err != nil {
					_ = err.Error()
				}
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(c.src)))
			for b.Loop() {
				parse()
			}
			b.StopTimer()
			b.ReportMetric(peakHeap(parse)/(1<<20), "peak-heap-MB")
		})
	}
}

// peakHeap runs f once and returns the most bytes of heap objects in use
// while it ran, over those in use before.
func peakHeap(f func()) float64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() float64 {
		metrics.Read(sample)
		return float64(sample[0].Value.Uint64())
	}
	base := read()
	sampled := base
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				sampled = max(sampled, read())
			}
		}
	}()
	f()
	last := read()
	close(done)
	wg.Wait()
	return max(sampled, last) - base
}
