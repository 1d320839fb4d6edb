package run

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/fixture"
	"github.com/e2e-dev/e2e/session/testfile"
	"github.com/e2e-dev/e2e/store"
)

// The zoo's cold runs are made once for the package: every zoo test on
// every style, the cache empty, with the local locator only, each into a
// store of its own (the read-write policy on an empty store locates every
// element as the locator alone does, and records the test when it
// passes). TestZoo reads them; TestZooWarmReplay and TestZooCrossStyle
// replay against copies of their stores. All of them use one fixture
// server: the base URL's origin enters every cache key.
var zooCold struct {
	once sync.Once
	dir  string // the stores, as the cold runs left them; removed by TestMain
	srv  *httptest.Server
	cfg  *testfile.Config
	runs []zooColdRun // in loadZoo order, styles in fixture.ZooStyles order
	err  string
}

// zooColdRun is one zoo test's cold run on one style, and its store.
type zooColdRun struct {
	zf  zooFile
	run zooRun
	db  string // the closed store file the run wrote
}

// coldZoo makes the cold runs (once; a later caller waits for the first)
// and returns them.
func coldZoo(t *testing.T) []zooColdRun {
	t.Helper()
	browserTest(t)
	zooCold.once.Do(func() {
		dir, err := os.MkdirTemp("", "e2e-zoo-cold-")
		if err != nil {
			zooCold.err = err.Error()
			return
		}
		zooCold.dir = dir
		zooCold.srv = httptest.NewServer(fixture.Handler(fixture.Options{}))
		cfg := testfile.DefaultConfig(dir)
		cfg.BaseURL = zooCold.srv.URL
		cfg.Timeouts.Step = zooStepTimeout
		zooCold.cfg = cfg
		files := loadZoo(t)
		for _, zf := range files {
			for _, style := range fixture.ZooStyles {
				zooCold.runs = append(zooCold.runs, zooColdRun{zf: zf, db: filepath.Join(dir, zf.Name+"-"+style+".db"), run: zooRun{Style: style}})
			}
		}
		var jobs []func()
		for i := range zooCold.runs {
			c := &zooCold.runs[i]
			jobs = append(jobs, func() {
				style := c.run.Style
				db, err := store.Open(context.Background(), c.db)
				if err != nil {
					c.run = zooRun{Page: c.zf.Name, Style: style, File: filepath.Base(c.zf.Path), Err: err.Error()}
					return
				}
				h := &zooHarness{cfg: cfg, db: db, cache: CacheReadWrite}
				c.run = h.run(t, c.zf, style)
				if err := db.Close(); err != nil {
					c.run.Err = "close the store: " + err.Error()
				}
			})
		}
		zooParallel(zooCrossParallel, jobs)
	})
	if zooCold.err != "" {
		t.Fatal(zooCold.err)
	}
	return zooCold.runs
}

// zooStepTimeout is the step timeout of the zoo's runs: generous, so that a
// loaded machine only makes a run slower. A step the zoo lists as a known
// exception for the style it runs on gets zooExceptTimeout (see
// zooHarness.run); any other step that finds nothing fails the test, and
// only then is the minute waited out.
const zooStepTimeout = time.Minute

// closeColdZoo removes what coldZoo made (TestMain, after the tests).
func closeColdZoo() {
	if zooCold.srv != nil {
		zooCold.srv.Close()
	}
	if zooCold.dir != "" {
		os.RemoveAll(zooCold.dir)
	}
}

// copyOf copies c's store into a new file under t's temporary directory,
// opened for t.
func (c zooColdRun) copyOf(t *testing.T) *store.DB {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "e2e.db")
	copyZooStore(t, c.db, dst)
	return openZooStore(t, dst)
}
