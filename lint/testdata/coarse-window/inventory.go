// Package inventory has QPS limits measured over long windows.
package inventory

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Query reads stock levels.
//
//sentinel:resource name=coarse.query blockHandler=queryBlocked
func Query(ctx context.Context, sku string) (int, error) { return 0, nil }

func queryBlocked(ctx context.Context, sku string, blocked *runtime.BlockError) (int, error) {
	return 0, blocked
}
