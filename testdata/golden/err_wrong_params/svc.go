// Package svc has handlers with the wrong parameters.
package svc

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Req is a request.
type Req struct{}

// Order is a result.
type Order struct{}

// Service is guarded.
type Service struct{}

// CreateOrder's blockHandler forgets the BlockError; its fallback swaps the
// parameters.
//
//sentinel:resource name=createOrder blockHandler=createOrderBlocked fallback=createOrderFallback
func (s *Service) CreateOrder(ctx context.Context, req *Req) (*Order, error) { return nil, nil }

func (s *Service) createOrderBlocked(ctx context.Context, req *Req) (*Order, error) { return nil, nil }

func (s *Service) createOrderFallback(req *Req, ctx context.Context) (*Order, error) { return nil, nil }

// Get's defaultFallback takes the method's parameters, which it must not.
//
//sentinel:resource defaultFallback=shared
func (s *Service) Get(ctx context.Context, id int) error { return nil }

func shared(ctx context.Context, id int) error { return nil }

// Unnamed has unnamed parameters; the wanted signature is shown unnamed too.
//
//sentinel:resource blockHandler=unnamedBlocked
func (s *Service) Unnamed(context.Context, int) error { return nil }

func (s *Service) unnamedBlocked(context.Context, *runtime.BlockError) error { return nil }
