// Package orders has rules migrated from sentinel-golang.
package orders

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Place places an order.
//
//sentinel:resource name=golang.place blockHandler=placeBlocked
func Place(ctx context.Context, id string) error { return nil }

func placeBlocked(ctx context.Context, id string, blocked *runtime.BlockError) error {
	return blocked
}
