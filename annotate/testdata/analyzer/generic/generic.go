// Package generic has a method of a generic type whose handler is missing.
package generic

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Store is guarded.
type Store[K comparable, V any] struct{ m map[K]V }

// Get's blockHandler does not exist yet; the stub is a method of Store
// too, with the zero value of the type parameter.
// want +2 "blockHandler onGetLimit not found in the method set of Store or package generic$"
//
//sentinel:resource blockHandler=onGetLimit
func (s *Store[K, V]) Get(ctx context.Context, k K) (V, [2]int, error) {
	return s.m[k], [2]int{}, nil
}

var _ *runtime.BlockError
