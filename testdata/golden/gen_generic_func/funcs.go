// Package genericfunc guards generic package-level functions: GuardedF has
// F's type parameters and instantiates F and its handlers with them.
package genericfunc

import (
	"context"
	"errors"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// ErrEmpty is returned for an empty input.
var ErrEmpty = errors.New("empty")

// Number is a constraint declared as a named interface.
type Number interface {
	~int | ~int64 | ~float64
}

// Map applies f to every element.
//
//sentinel:resource name=genericfunc.map fallback=mapFallback
func Map[T, U any](ctx context.Context, xs []T, f func(T) U) ([]U, error) {
	if len(xs) == 0 {
		return nil, ErrEmpty
	}
	out := make([]U, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out, nil
}

func mapFallback[T, U any](ctx context.Context, xs []T, f func(T) U, err error) ([]U, error) {
	return []U{}, err
}

// Sum adds xs; a block answers -1.
//
//sentinel:resource name=genericfunc.sum blockHandler=sumBlocked
func Sum[N Number](xs []N) (N, error) {
	var total N
	for _, x := range xs {
		total += x
	}
	return total, nil
}

func sumBlocked[N Number](xs []N, blockErr *runtime.BlockError) (N, error) {
	return -1, nil
}

// Max returns the larger of a and b; its constraint is written inline.
//
//sentinel:resource name=genericfunc.max
func Max[T ~int | ~string](a, b T) (T, error) {
	if a > b {
		return a, nil
	}
	return b, nil
}
