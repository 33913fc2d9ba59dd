// Package svc uses one resource name twice, once explicitly and once as a
// default name.
package svc

import "context"

// Service is guarded.
type Service struct{}

// Get is guarded under its default name.
//
//sentinel:resource
func (s *Service) Get(ctx context.Context) error { return nil }

// Fetch takes Get's default name.
//
//sentinel:resource name=example.com/golden/err_dup_name_same_pkg.Service.Get
func (s *Service) Fetch(ctx context.Context) error { return nil }
