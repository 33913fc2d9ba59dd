// Package svc declares names the generator needs.
package svc

import "context"

// Service is guarded.
type Service struct{}

// GuardedService is the user's own type, in the way of the wrapper.
type GuardedService struct{}

// Get is guarded.
//
//sentinel:resource
func (s *Service) Get(ctx context.Context) error { return nil }

// Ping is guarded.
//
//sentinel:resource
func Ping(ctx context.Context) error { return nil }

// GuardedPing is the user's own function, in the way of the wrapper.
func GuardedPing() {}
