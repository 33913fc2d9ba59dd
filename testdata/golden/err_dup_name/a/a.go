// Package a declares the resource "orders".
package a

import "context"

// List is guarded.
//
//sentinel:resource name=orders
func List(ctx context.Context) error { return nil }
