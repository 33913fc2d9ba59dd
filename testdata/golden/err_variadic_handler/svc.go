// Package svc has a variadic handler, which the directive does not allow.
package svc

import "context"

// Option configures a call.
type Option func()

// Service is guarded.
type Service struct{}

// Get is variadic; its fallback must take opts as []Option.
//
//sentinel:resource fallback=getFallback
func (s *Service) Get(ctx context.Context, opts ...Option) error { return nil }

func (s *Service) getFallback(ctx context.Context, opts ...Option) error { return nil }
