// Package svc has a directive in a file that no build includes.
package svc

import "context"

// Get is guarded.
//
//sentinel:resource name=ignore.get
func Get(ctx context.Context) error { return nil }
