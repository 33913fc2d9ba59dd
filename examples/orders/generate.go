package orders

// sentinel_gen.go is generated from the //sentinel:resource directives in
// this package. The root go.mod declares cmd/sentinelgen as a tool, so no
// separate install is needed.
//go:generate go tool sentinelgen
