// Package svc's previous output was cut short (an interrupted write); it
// must not stop regeneration.
package svc

import "context"

// Service is guarded.
type Service struct{}

// Get is guarded.
//
//sentinel:resource
func (s *Service) Get(ctx context.Context) error { return nil }
