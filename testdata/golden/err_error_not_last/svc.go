// Package svc has a method whose error is not its last result.
package svc

import "context"

// Service is guarded.
type Service struct{}

// Get returns its error first.
//
//sentinel:resource fallback=getFallback
func (s *Service) Get(ctx context.Context) (error, int) { return nil, 0 }

func (s *Service) getFallback(ctx context.Context) (error, int) { return nil, 0 }
