// Package handlers holds handlers shared across services.
package handlers

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Blocked answers a blocked call.
func Blocked(ctx context.Context, id string, blockErr *runtime.BlockError) error { return nil }

// Fallback answers a failed call without looking at the error.
func Fallback(ctx context.Context, id string) error { return nil }

// Default is the shared default fallback.
func Default(err error) error { return err }
