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

// Cancel's fallback takes the error but forgets the request: the wanted
// signature is the form with the error, the one nearest to what it wrote.
//
//sentinel:resource fallback=cancelFallback
func (s *Service) Cancel(ctx context.Context, req *Req) error { return nil }

func (s *Service) cancelFallback(ctx context.Context, err error) error { return err }
