// Package svc has a stale generated file and user code that uses the
// generated names; regeneration must still work.
package svc

import "context"

// Service is guarded.
type Service struct{}

// Get is guarded; its fallback was renamed since the last generation.
//
//sentinel:resource fallback=getFallbackV2
func (s *Service) Get(ctx context.Context) error { return nil }

func (s *Service) getFallbackV2(ctx context.Context) error { return nil }

// Ping is guarded.
//
//sentinel:resource
func Ping(ctx context.Context) error { return nil }

// Default returns the guarded service the package hands out.
func Default() *GuardedService { return NewGuardedService(&Service{}) }

var _ = GuardedPing
