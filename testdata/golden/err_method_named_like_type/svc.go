// Package svc has an annotated method named like its receiver type, which
// the generated wrapper cannot declare beside its embedded field.
package svc

import "context"

// Order is a service type with a method of its own name.
type Order struct{}

//sentinel:resource fallback=orderFallback
func (o *Order) Order(ctx context.Context) error { return nil }

func (o *Order) orderFallback(ctx context.Context, err error) error { return err }

// Ship is guarded normally.
//
//sentinel:resource
func (o *Order) Ship(ctx context.Context) error { return nil }
