// Package clean is guarded by rules that no check objects to.
package clean

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// audit is registered by hand, so rules may name it.
var audit = runtime.NewResource("clean.audit")

// ListItems is the inbound edge of the service.
//
//sentinel:resource name=clean.listItems entryType=in blockHandler=listItemsBlocked
func ListItems(ctx context.Context, page int) ([]string, error) {
	return FetchPrices(runtime.WithEntrance(ctx, "clean.web"), page)
}

func listItemsBlocked(ctx context.Context, page int, blocked *runtime.BlockError) ([]string, error) {
	return nil, blocked
}

// FetchPrices calls a dependency.
//
//sentinel:resource name=clean.fetchPrices fallback=fetchPricesFallback
func FetchPrices(ctx context.Context, page int) ([]string, error) {
	e, blocked := audit.Entry(ctx)
	if blocked != nil {
		return nil, blocked
	}
	defer e.Exit()
	return []string{"1"}, nil
}

func fetchPricesFallback(ctx context.Context, page int, err error) ([]string, error) {
	return nil, nil
}
