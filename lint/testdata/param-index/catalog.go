// Package catalog has hot-parameter rules whose paramIdx misses the
// method's parameters.
package catalog

import "context"

// Detail returns a product page.
//
//sentinel:resource name=paramidx.detail
func Detail(ctx context.Context, sku string, qty int) error { return nil }

// Ping has no parameters after ctx.
//
//sentinel:resource name=paramidx.ping
func Ping(ctx context.Context) error { return nil }

// Stock takes no context.Context: every parameter counts.
//
//sentinel:resource name=paramidx.stock
func Stock(sku string) error { return nil }
