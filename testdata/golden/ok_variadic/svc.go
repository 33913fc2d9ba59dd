// Package svc guards variadic methods; handlers take the variadic
// parameter as a slice.
package svc

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Option configures a search.
type Option func(*int)

// Service is guarded.
type Service struct{}

// Search is variadic.
//
//sentinel:resource blockHandler=searchBlocked fallback=searchFallback
func (s *Service) Search(ctx context.Context, q string, opts ...Option) ([]string, error) {
	return nil, nil
}

func (s *Service) searchBlocked(ctx context.Context, q string, opts []Option, blockErr *runtime.BlockError) ([]string, error) {
	return nil, blockErr
}

func (s *Service) searchFallback(ctx context.Context, q string, opts []Option, err error) ([]string, error) {
	return nil, err
}
