// Package svc mixes value and pointer receivers; a value-receiver method
// may use a pointer-receiver handler.
package svc

import "context"

// Counter is guarded.
type Counter struct{ n int }

// Get has a value receiver.
//
//sentinel:resource fallback=getFallback
func (c Counter) Get(ctx context.Context) (int, error) { return c.n, nil }

func (c *Counter) getFallback(ctx context.Context) (int, error) { return 0, nil }

// Inc has a pointer receiver.
//
//sentinel:resource fallback=getFallback
func (c *Counter) Inc(ctx context.Context) (int, error) { c.n++; return c.n, nil }
