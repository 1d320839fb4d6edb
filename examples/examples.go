// Package examples bundles the example suite that `e2e demo` runs against
// the fixture app; the same files run with `e2e run --config examples`.
package examples

import "embed"

// FS holds e2e.yaml and the *.e2e.yaml tests.
//
//go:embed e2e.yaml *.e2e.yaml
var FS embed.FS
