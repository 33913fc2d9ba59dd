// Package svc guards an unexported type and an unexported function.
package svc

import "context"

type orderService struct{}

// place is guarded.
//
//sentinel:resource fallback=placeFallback entryType=in resourceType=rpc
func (o *orderService) place(ctx context.Context) error { return nil }

func (o *orderService) placeFallback(ctx context.Context, err error) error { return nil }

// ping is guarded.
//
//sentinel:resource resourceType=db
func ping() error { return nil }
