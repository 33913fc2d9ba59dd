// Package orders has rules that name resources it does not have.
package orders

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Serve marks calls as entering through the gateway.
func Serve(ctx context.Context) error {
	return CreateOrder(runtime.WithEntrance(ctx, "unknown.gateway"), "o-1")
}

// CreateOrder places an order.
//
//sentinel:resource name=unknown.createOrder fallback=createOrderFallback
func CreateOrder(ctx context.Context, id string) error { return nil }

func createOrderFallback(ctx context.Context, id string, err error) error { return nil }
