// Package svc has handlers with the wrong results.
package svc

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Order is a result.
type Order struct{}

// Service is guarded.
type Service struct{}

// Get's handlers return the wrong results.
//
//sentinel:resource blockHandler=getBlocked fallback=getFallback defaultFallback=getDefault
func (s *Service) Get(ctx context.Context, id int) (*Order, error) { return nil, nil }

func (s *Service) getBlocked(ctx context.Context, id int, be *runtime.BlockError) error { return be }

func (s *Service) getFallback(ctx context.Context, id int, err error) (Order, error) {
	return Order{}, err
}

func (s *Service) getDefault() (o *Order, err error, ok bool) { return nil, nil, false }
