// Package parent provides the imported type of the benchmark service.
package parent

// Item is an entity of another package, so that the generated code imports it.
type Item struct {
	ID string
}
