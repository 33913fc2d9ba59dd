// Package svc imports a package only for a directive, which Go does not
// count as a use.
package svc

import (
	"context"

	"example.com/golden/err_import_unused/handlers"
)

// Get is guarded.
//
//sentinel:resource fallback=handlers.Fallback
func Get(ctx context.Context) error { return nil }
