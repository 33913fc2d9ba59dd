// Package generictype guards the methods of a generic type: the wrapper is
// generic too, with the type's own type parameter names.
package generictype

import (
	"context"
	"errors"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// ErrMissing is returned for an absent key.
var ErrMissing = errors.New("missing")

// Getter is what callers of a Cache depend on.
type Getter[K comparable, V any] interface {
	Get(ctx context.Context, key K) (V, error)
}

// Cache maps keys to values.
type Cache[K comparable, V any] struct {
	m map[K]V
}

// NewCache returns an empty cache.
func NewCache[K comparable, V any]() *Cache[K, V] {
	return &Cache[K, V]{m: make(map[K]V)}
}

// Get returns the value of key.
//
//sentinel:resource name=generictype.get blockHandler=getBlocked
func (c *Cache[K, V]) Get(ctx context.Context, key K) (V, error) {
	v, ok := c.m[key]
	if !ok {
		return v, ErrMissing
	}
	return v, nil
}

// Put stores v; its receiver names the type parameters differently, which
// the wrapper must not mind.
//
//sentinel:resource name=generictype.put fallback=putFallback
func (c *Cache[A, B]) Put(ctx context.Context, key A, v B) error {
	c.m[key] = v
	return nil
}

// Len is not annotated.
func (c *Cache[K, V]) Len() int { return len(c.m) }

func (c *Cache[K, V]) getBlocked(ctx context.Context, key K, blockErr *runtime.BlockError) (V, error) {
	var zero V
	return zero, errors.Join(ErrMissing, blockErr)
}

func (c *Cache[X, Y]) putFallback(ctx context.Context, key X, v Y, err error) error {
	return err
}
