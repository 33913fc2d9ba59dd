// Package stock has rules pasted twice.
package stock

import "context"

// Reserve reserves stock.
//
//sentinel:resource name=duplicate.reserve fallback=reserveFallback
func Reserve(ctx context.Context, sku string, n int) error { return nil }

func reserveFallback(ctx context.Context, sku string, n int, err error) error { return nil }
