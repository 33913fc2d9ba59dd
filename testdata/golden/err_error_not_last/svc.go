// Package svc has methods whose error is not their last result.
package svc

import "context"

// Service is guarded.
type Service struct{}

// Get returns its error first.
//
//sentinel:resource fallback=getFallback
func (s *Service) Get(ctx context.Context) (error, int) { return nil, 0 }

func (s *Service) getFallback(ctx context.Context) (error, int) { return nil, 0 }

// Put returns its error first and has no handler; that is not a second problem.
//
//sentinel:resource ignore=ErrX
func (s *Service) Put(ctx context.Context) (err error, n int) { return nil, 0 }
