// Package handlers holds shared handlers.
package handlers

import "context"

// Fallback is a shared fallback.
func Fallback(ctx context.Context, err error) error { return nil }
