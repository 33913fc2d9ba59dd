// Package svc names handlers that are not functions.
package svc

import "context"

// Service is guarded; Hook is a field, not a method.
type Service struct {
	Hook func(ctx context.Context) error
}

const limit = 3

// Get's fallback is a field and its defaultFallback a constant.
//
//sentinel:resource fallback=Hook defaultFallback=limit
func (s *Service) Get(ctx context.Context) error { return nil }
