// Package valuereceiver guards a method with a value receiver: the wrapper
// still embeds *Counter and calls through it.
package valuereceiver

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Reader is satisfied by Counter, *Counter and *GuardedCounter.
type Reader interface {
	Value(ctx context.Context) (int, error)
}

// Counter holds a count.
type Counter struct{ N int }

// Value returns the count.
//
//sentinel:resource name=valuereceiver.value blockHandler=valueBlocked
func (c Counter) Value(ctx context.Context) (int, error) { return c.N, nil }

func (c Counter) valueBlocked(ctx context.Context, blockErr *runtime.BlockError) (int, error) {
	return -c.N, nil
}
