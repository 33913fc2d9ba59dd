// Package svc has a stray closing brace between a directive and its method.
// Only the syntax error is reported: the import is used and the directive
// is in place, which the parser cannot know once it has skipped the method.
package svc

import "context"

// Service is guarded.
type Service struct{}

// Get is guarded.
//
//sentinel:resource name=get
}
func (s *Service) Get(ctx context.Context) error { return nil }

// Put is guarded.
//
//sentinel:resource name=put fallback=putFallback
func (s *Service) Put(ctx context.Context) error { return nil }
