// Package svc has generic types and functions with misplaced handlers.
package svc

import "context"

// Store is generic.
type Store[T any] struct{}

// Get's fallback is a function, but a generic type's handlers are methods.
//
//sentinel:resource fallback=getFallback
func (s *Store[T]) Get(ctx context.Context) (T, error) {
	var zero T
	return zero, nil
}

func getFallback(ctx context.Context) (int, error) { return 0, nil }

// First is generic; its fallback is not.
//
//sentinel:resource fallback=firstFallback
func First[E any](ctx context.Context, xs []E) (E, error) { return xs[0], nil }

func firstFallback(ctx context.Context, xs []int) (int, error) { return 0, nil }

// Last is generic; its fallback has the wrong number of type parameters.
//
//sentinel:resource fallback=lastFallback
func Last[E any](ctx context.Context, xs []E) (E, error) { return xs[len(xs)-1], nil }

func lastFallback[E, F any](ctx context.Context, xs []E) (E, error) { return xs[0], nil }
