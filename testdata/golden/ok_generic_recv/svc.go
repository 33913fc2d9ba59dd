// Package svc guards methods of a generic type; their handlers are methods
// of the same type, also when the method names its type parameter
// differently from the type declaration.
package svc

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Cache is generic.
type Cache[K comparable, V any] struct{ m map[K]V }

// Get is guarded.
//
//sentinel:resource blockHandler=getBlocked fallback=getFallback
func (c *Cache[Key, Val]) Get(ctx context.Context, k Key) (Val, error) { return c.m[k], nil }

func (c *Cache[K, V]) getBlocked(ctx context.Context, k K, blockErr *runtime.BlockError) (V, error) {
	var zero V
	return zero, blockErr
}

func (c *Cache[A, B]) getFallback(ctx context.Context, k A) (B, error) {
	var zero B
	return zero, nil
}
