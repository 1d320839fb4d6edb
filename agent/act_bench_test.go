package agent_test

import (
	"context"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/agent"
	"github.com/e2e-dev/e2e/agent/agenttest"
	"github.com/e2e-dev/e2e/session/ax"
)

// BenchmarkActHugeReplies runs a 25-round act (24 execute_step answers and
// a finish) against a model whose every answer carries reply bytes of text
// and as many of padding in its arguments, and reports the peak of the live
// heap during the act above the heap before it (peak-heap-MB), besides
// bytes/op. reply=0 is the baseline: a model of small answers. The server
// streams the padding and keeps no requests, so what is measured is the
// client and the act.
//
//	go test ./agent/ -run '^$' -bench BenchmarkActHugeReplies -benchtime 5x
func BenchmarkActHugeReplies(b *testing.B) {
	for _, size := range []struct {
		name string
		fill int
	}{{"reply=small", 0}, {"reply=1MB", 512 << 10}} { // text and padding: 1 MiB an answer
		b.Run(size.name, func(b *testing.B) {
			login, users := fixture(b, "login"), fixture(b, "users")
			round := execute(clickEmail)
			if size.fill > 0 {
				round = agenttest.Step{Content: agenttest.FillMarker, Calls: []agenttest.Call{{Name: agent.ExecuteStep,
					Arguments: `{"steps": ["--step-type CLICK --description \"the Email field\""], "pad": "` + agenttest.FillMarker + `"}`}},
					Fill: size.fill, TokensIn: 100, TokensOut: 20}
			}
			script := make([]agenttest.Step, 0, 25)
			for range 24 {
				script = append(script, round)
			}
			script = append(script, finish(true, "ok", "done"))
			var peak float64
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				h := newHarness(b, nil, script...)
				h.srv.DiscardRequests()
				env := &fakeEnv{snaps: []*ax.Snapshot{login, users}}
				actor := &agent.Actor{Client: h.c, Budget: agent.Budget{MaxTokens: 100_000_000}}
				runtime.GC()
				stop := sampleHeap()
				b.StartTimer()
				res, err := actor.Act(context.Background(), "sign in", "", env)
				b.StopTimer()
				peak = max(peak, stop())
				if err != nil || !res.Success || res.ModelCalls != 25 {
					b.Fatalf("act: %v (%+v)", err, res)
				}
				b.StartTimer()
			}
			b.ReportMetric(peak/1e6, "peak-heap-MB")
		})
	}
}

// sampleHeap samples the live heap every half millisecond until the
// returned function is called, which returns the peak above the heap at
// the start, in bytes.
func sampleHeap() func() float64 {
	const name = "/memory/classes/heap/objects:bytes"
	read := func() uint64 {
		s := []metrics.Sample{{Name: name}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	base := read()
	var (
		mu   sync.Mutex
		peak = base
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(500 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				v := read()
				mu.Lock()
				peak = max(peak, v)
				mu.Unlock()
			}
		}
	}()
	return func() float64 {
		close(done)
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		return float64(max(peak, read()) - base)
	}
}
