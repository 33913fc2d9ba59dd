// Package api queues requests at its edge.
package api

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Checkout is an inbound HTTP handler's body.
//
//sentinel:resource name=queue.checkout entryType=in blockHandler=checkoutBlocked
func Checkout(ctx context.Context, cart string) error { return nil }

func checkoutBlocked(ctx context.Context, cart string, blocked *runtime.BlockError) error {
	return blocked
}

// Route is the gateway's routing step.
//
//sentinel:resource name=queue.route resourceType=gateway blockHandler=routeBlocked
func Route(ctx context.Context, path string) error { return nil }

func routeBlocked(ctx context.Context, path string, blocked *runtime.BlockError) error {
	return blocked
}

// Notify calls a downstream service: queueing there is what the rate
// limiter is for.
//
//sentinel:resource name=queue.notify blockHandler=notifyBlocked
func Notify(ctx context.Context, user string) error { return nil }

func notifyBlocked(ctx context.Context, user string, blocked *runtime.BlockError) error {
	return blocked
}
