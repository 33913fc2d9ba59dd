// Package catalog has a hot-parameter rule naming a parameter the method
// does not have.
package catalog

import "context"

// Detail returns a product page.
//
//sentinel:resource name=unknownparam.detail
func Detail(ctx context.Context, sku string, qty int) error { return nil }

// Ping has no parameters after ctx.
//
//sentinel:resource name=unknownparam.ping
func Ping(ctx context.Context) error { return nil }
