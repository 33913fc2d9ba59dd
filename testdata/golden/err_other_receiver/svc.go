// Package svc names handlers declared on another receiver type.
package svc

import "context"

// Service is guarded.
type Service struct{}

// Other is not Service.
type Other struct{}

func (o *Other) getFallback(ctx context.Context) error { return nil }

// Get's fallback is a method of Other.
//
//sentinel:resource fallback=getFallback
func (s *Service) Get(ctx context.Context) error { return nil }

// Ping is a function whose fallback is a method.
//
//sentinel:resource fallback=getFallback
func Ping(ctx context.Context) error { return nil }
