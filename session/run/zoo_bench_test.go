package run

import (
	"flag"
	"os"
	"testing"

	"github.com/e2e-dev/e2e/session/fixture"
)

var zooTableFile = flag.String("zoo.table", "", "BenchmarkZoo writes its markdown table (page × style) to this file")

// BenchmarkZoo runs every zoo test on every style with no model (the
// local locator, no cache), one sub-benchmark per page and style, and
// reports per run: element steps, located correctly, ambiguous, not found,
// wrong, and the median time of a locate (the snapshot and the local
// locator of a lookup that found its element). It logs the markdown table
// of BENCHMARKS.md, and writes it to -zoo.table when given:
//
//	go test ./session/run/ -run '^$' -bench Zoo -benchtime 1x -args -zoo.table=/tmp/zoo.md
func BenchmarkZoo(b *testing.B) {
	h := newZooHarness(b)
	files := loadZoo(b)
	last := map[string]zooRun{}
	var order []string
	for _, zf := range files {
		for _, style := range fixture.ZooStyles {
			name := zf.Name + "/" + style
			b.Run(name, func(b *testing.B) {
				var r zooRun
				for b.Loop() {
					r = h.run(b, zf, style)
				}
				var c zooCounts
				c.add(r)
				b.ReportMetric(float64(c.Steps), "steps")
				b.ReportMetric(float64(c.Located), "located")
				b.ReportMetric(float64(c.Ambiguous), "ambiguous")
				b.ReportMetric(float64(c.NotFound), "notfound")
				b.ReportMetric(float64(c.Wrong), "wrong")
				b.ReportMetric(c.medianMS(), "ms/locate")
				if _, ok := last[name]; !ok {
					order = append(order, name)
				}
				last[name] = r
			})
		}
	}
	var runs []zooRun
	for _, n := range order {
		runs = append(runs, last[n])
	}
	if len(runs) == 0 {
		return // a -bench pattern that names no zoo page
	}
	table := zooReport(runs)
	b.Logf("zoo (no model, local locator only):\n%s", table)
	if *zooTableFile != "" {
		if err := os.WriteFile(*zooTableFile, []byte(table), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}
