// Package handlers holds an unexported handler.
package handlers

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Keep keeps the import used.
func Keep() {}

func unexported(ctx context.Context, be *runtime.BlockError) error { return be }

var _ = unexported
