// Package svc has a directive that repeats a key.
package svc

import "context"

// Service is guarded.
type Service struct{}

// Get names its resource twice.
//
//sentinel:resource name=first fallback=getFallback name=second
func (s *Service) Get(ctx context.Context) error { return nil }

func (s *Service) getFallback(ctx context.Context) error { return nil }
