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
// Because the output is a pure function of the model, Sync can skip
// rendering a package whose file already holds what its model gave last
// time: Cache records, per generator binary and model, the hash of that
// output. The model's part of the key is derived from the model's types by
// reflection, so it cannot miss a field.
//
// Each concern has its own file: names.go (identifier allocation),
// imports.go and imports_group.go (import names and layout, formatting),
// typeexpr.go (go/types to source), resources.go, wrapper.go, method.go,
// hotparams.go (parameter names and hot-parameter keys), errfilter.go and
// assert.go (the pieces of one file), generate.go
// (assembling them), sync.go (writing, checking, deleting, concurrently),
// cache.go (Cache, the generation cache's API) and modelkey.go (the model's
// encoding for the cache key). The cache's mechanism (its entries, the run
// records, the generator's identity and the housekeeping of every cache
// under the root) is package gen/internal/cache.
package gen
