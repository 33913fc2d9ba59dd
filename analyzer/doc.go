// Package analyzer is sentinelgen's checks as a go/analysis Analyzer, for
// go vet (cmd/sentinelvet), go fix, golangci-lint and any other driver.
//
// Analyzer runs annotate.Check, the generator's own checks, on each
// package a driver type-checks, and reports every problem at the directive
// value that causes it, with the handler's declaration as related
// information and, where the edit is mechanical, a suggested fix. It also
// renders what the generator would write (gen.Generate) and reports a
// missing or stale sentinel_gen.go, so that an edited directive is flagged
// before anyone runs go generate.
//
// The Analyzer lives here rather than in package annotate because it needs
// gen to render the expected file and gen imports annotate: annotate
// cannot import gen without a cycle. This package imports both.
package analyzer
