// Package svc names handlers in other packages that are wrong.
package svc

import (
	"context"

	"example.com/golden/err_handler_import/handlers"
)

// A names a package this file does not import.
//
//sentinel:resource fallback=orders.Fallback
func A(ctx context.Context) error { return nil }

// B misspells a function of an imported package.
//
//sentinel:resource fallback=handlers.Fallbak
func B(ctx context.Context) error { return nil }

// C names an unexported function.
//
//sentinel:resource fallback=handlers.hidden
func C(ctx context.Context) error { return nil }

// D names a variable.
//
//sentinel:resource fallback=handlers.Limit
func D(ctx context.Context) error { return handlers.Fallback(ctx, nil) }
