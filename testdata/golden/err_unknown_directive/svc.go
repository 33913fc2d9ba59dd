// Package svc misspells the directive.
package svc

import "context"

// Service is guarded.
type Service struct{}

// Get uses a misspelt directive, which must not be silently ignored.
//
//sentinel:resouce name=get
func (s *Service) Get(ctx context.Context) error { return nil }
