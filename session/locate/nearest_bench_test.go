package locate

import "testing"

// BenchmarkNearest2kRows: Nearest for a typo ("the Delte button in the
// Item 1500 row") on the /rows?n=2000 page, what a failed step adds to its
// error; compare BenchmarkSnapshot2kRows (session/browser), the snapshot
// every look takes.
func BenchmarkNearest2kRows(b *testing.B) {
	s := twoThousandRows()
	const desc = "the Delte button in the Item 1500 row"
	if r := Locate(s, desc); r.Target != nil {
		b.Fatalf("%s: located %s", desc, label(r.Target))
	}
	if n := Nearest(s, desc); len(n) == 0 || n[0].Label != `button "Delete" in row "Item 1500 …"` {
		b.Fatalf("%s: nearest %+v", desc, n)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Nearest(s, desc)
	}
}

// BenchmarkNarrow2kRows: Narrow for "the Delete button", 2,000 equal
// candidates on the /rows?n=2000 page: five suggestions, each located again.
func BenchmarkNarrow2kRows(b *testing.B) {
	s := twoThousandRows()
	const desc = "the Delete button"
	r := Locate(s, desc)
	if n := Narrow(s, desc, r); len(n) != 5 {
		b.Fatalf("%s: narrow %+v", desc, n)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Narrow(s, desc, r)
	}
}
