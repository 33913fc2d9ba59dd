// Package svc has directives with missing values.
package svc

import "context"

// Service is guarded.
type Service struct{}

// Get has empty values, bare and quoted.
//
//sentinel:resource name= fallback="" entryType=in
func (s *Service) Get(ctx context.Context) error { return nil }

// Put has an empty ignore entry.
//
//sentinel:resource ignore=ErrA,,ErrB
func (s *Service) Put(ctx context.Context) error { return nil }
