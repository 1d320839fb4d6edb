package run

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/fixture"
	"github.com/e2e-dev/e2e/session/testfile"
	"github.com/e2e-dev/e2e/store"
)

// benchSuite runs the twelve-test suite on workers browser contexts of one
// browser, warm (every element from the cache, after one untimed cold run),
// as CI runs it on every pull request. Most of its time is the app and the
// browser working: renderers starting, pages loading and settling, search
// results arriving after ~600 ms. Compare the two benchmarks of one run:
//
//	go test ./session/run/ -run '^$' -bench Suite12 -benchtime 2x -count 3
func benchSuite(b *testing.B, workers int) {
	srv := httptest.NewServer(fixture.Handler(fixture.Options{}))
	defer srv.Close()
	dir := b.TempDir()
	cfg := testfile.DefaultConfig(dir)
	cfg.BaseURL = srv.URL
	cfg.Timeouts.Step = 5 * time.Second
	db, err := store.Open(context.Background(), filepath.Join(dir, "e2e.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	vars := map[string]string{"E2E_USER": "alice@example.com", "E2E_PASSWORD": "correct-horse"}
	r, err := New(Options{Config: cfg, Project: "fixture", Store: db, Browser: shared, Suite: SuiteOptions{Workers: workers},
		Env: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }})
	if err != nil {
		b.Fatal(err)
	}
	tests := suite(b)
	run := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		rep, err := r.Run(ctx, tests)
		if err != nil {
			b.Fatal(err)
		}
		if !rep.Passed() {
			for _, t := range rep.Tests {
				if t.Status != "passed" {
					b.Fatalf("%s failed: %s", t.Name, t.Error)
				}
			}
		}
	}
	run() // cold: locate and cache every element
	b.ResetTimer()
	for b.Loop() {
		run()
	}
}

func BenchmarkSuite12Workers1(b *testing.B) { benchSuite(b, 1) }
func BenchmarkSuite12Workers4(b *testing.B) { benchSuite(b, 4) }
