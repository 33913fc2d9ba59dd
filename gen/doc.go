// Package gen turns the checked model of package annotate into the
// sentinel_gen.go file of each package, and keeps those files in step with
// the source on disk (Sync).
//
// The output is a pure function of the model: the same model gives the same
// bytes, so a rerun never produces a diff and -check can compare bytes. The
// generated code calls only the public API of package runtime and uses no
// reflection, no map lookup and no allocation per call: every resource is a
// package-level *runtime.Resource created when the package is initialised.
//
// Each concern has its own file: names.go (identifier allocation),
// imports.go and imports_group.go (import names and layout), typeexpr.go
// (go/types to source), resources.go, wrapper.go, method.go, errfilter.go
// and assert.go (the pieces of one file), generate.go (assembling them) and
// sync.go (writing, checking, deleting).
package gen
