// Package svc uses quoted directive values.
package svc

import "context"

// Service is guarded.
type Service struct{}

// Get has a resource name with blanks and '='.
//
//sentinel:resource name="GET /orders?id=1" 	fallback="getFallback"
func (s *Service) Get(ctx context.Context) error { return nil }

func (s *Service) getFallback(ctx context.Context, err error) error { return nil }

// Put has an escaped quote in its name.
//
//sentinel:resource name="put \"order\"" entryType=out resourceType=web
func (s *Service) Put(ctx context.Context) error { return nil }
