// Package svc has two directives on one method.
package svc

import "context"

// Service is guarded.
type Service struct{}

// Get is annotated twice.
//
//sentinel:resource name=get
//sentinel:resource entryType=in
func (s *Service) Get(ctx context.Context) error { return nil }
