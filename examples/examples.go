// Package examples bundles the example suite that `e2e demo` runs against
// the fixture app; the same files run with `e2e run --config examples`.
package examples

import "embed"

// FS holds e2e.yaml and the *.e2e.yaml tests; agent/ holds the act
// examples and model.json, the playbook of the scripted model the demo
// uses when no model is configured. zoo/ (the markup zoo's tests) is not
// embedded: the zoo harness in session/run reads those files from disk, so
// that paths in them (upload files) resolve next to the test file.
//
//go:embed e2e.yaml *.e2e.yaml agent/*.e2e.yaml agent/model.json
var FS embed.FS
