// Package shop stacks limits along one call path: gateway, service,
// method.
package shop

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Gateway receives every request.
//
//sentinel:resource name=stacked.gateway entryType=in blockHandler=gatewayBlocked
func Gateway(ctx context.Context, path string) error {
	return Service(runtime.WithEntrance(ctx, "stacked.gateway"), path)
}

func gatewayBlocked(ctx context.Context, path string, blocked *runtime.BlockError) error {
	return blocked
}

// Service handles a request inside the service.
//
//sentinel:resource name=stacked.service blockHandler=serviceBlocked
func Service(ctx context.Context, path string) error {
	return Method(runtime.WithEntrance(ctx, "stacked.service"), path)
}

func serviceBlocked(ctx context.Context, path string, blocked *runtime.BlockError) error {
	return blocked
}

// Method is the innermost step.
//
//sentinel:resource name=stacked.method blockHandler=methodBlocked
func Method(ctx context.Context, path string) error { return nil }

func methodBlocked(ctx context.Context, path string, blocked *runtime.BlockError) error {
	return blocked
}

// Export yields to the gateway when the gateway is busy.
//
//sentinel:resource name=stacked.export blockHandler=exportBlocked
func Export(ctx context.Context) error { return nil }

func exportBlocked(ctx context.Context, blocked *runtime.BlockError) error { return blocked }
