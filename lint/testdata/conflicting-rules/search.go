// Package search is limited twice by the same limiter.
package search

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Search looks up products.
//
//sentinel:resource name=conflict.search blockHandler=searchBlocked
func Search(ctx context.Context, q string) ([]string, error) { return nil, nil }

func searchBlocked(ctx context.Context, q string, blocked *runtime.BlockError) ([]string, error) {
	return nil, blocked
}
