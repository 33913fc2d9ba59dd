// Package svc guards a generic function; its handlers are generic functions
// with the same type parameters.
package svc

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Number is a constraint.
type Number interface{ ~int | ~float64 }

// Sum is guarded.
//
//sentinel:resource blockHandler=sumBlocked fallback=sumFallback
func Sum[N Number](ctx context.Context, xs []N) (N, error) {
	var s N
	for _, x := range xs {
		s += x
	}
	return s, nil
}

func sumBlocked[M Number](ctx context.Context, xs []M, blockErr *runtime.BlockError) (M, error) {
	return 0, blockErr
}

func sumFallback[N Number](ctx context.Context, xs []N, err error) (N, error) { return 0, err }
