// Package handlers holds shared handlers.
package handlers

import "context"

// Fallback answers any call of a func(context.Context) error.
func Fallback(ctx context.Context, err error) error { return err }
