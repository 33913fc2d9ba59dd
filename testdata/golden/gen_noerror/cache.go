// Package noerror guards methods without an error result: only a handler
// can answer a block, and there is no business error to trace.
package noerror

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Cache is a read-through cache front.
type Cache struct {
	Warmed  int
	Skipped int
}

// Lookup returns a fresh value, or a stale one when blocked.
//
//sentinel:resource name=noerror.lookup blockHandler=lookupBlocked
func (c *Cache) Lookup(ctx context.Context, key string) string {
	return "fresh " + key
}

// Warm loads keys ahead of time; a blocked warm-up is skipped.
//
//sentinel:resource name=noerror.warm blockHandler=warmBlocked
func (c *Cache) Warm(ctx context.Context, keys []string) {
	c.Warmed += len(keys)
}

func (c *Cache) lookupBlocked(ctx context.Context, key string, blockErr *runtime.BlockError) string {
	return "stale " + key
}

func (c *Cache) warmBlocked(ctx context.Context, keys []string, blockErr *runtime.BlockError) {
	c.Skipped += len(keys)
}
