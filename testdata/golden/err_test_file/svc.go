// Package svc has directives in its test files, which sentinelgen does not
// generate from: each must be reported, not skipped.
package svc

import "context"

// Service is guarded in its own file.
type Service struct{}

// Get is guarded.
//
//sentinel:resource name=svc.get
func (s *Service) Get(ctx context.Context) error { return nil }
