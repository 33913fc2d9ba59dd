// Package handlers holds shared handlers.
package handlers

import "context"

// Fallback is a shared fallback.
func Fallback(ctx context.Context, err error) error { return nil }

// Limit is a variable, not a function.
var Limit = 10

func hidden(ctx context.Context) error { return nil }

var _ = hidden
