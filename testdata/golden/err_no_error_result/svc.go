// Package svc guards methods that cannot report a block.
package svc

import "context"

// Service is guarded.
type Service struct{}

// Count has no error result and no handler.
//
//sentinel:resource name=count ignore=ErrX
func (s *Service) Count(ctx context.Context) int { return 0 }

// Touch has no results at all.
//
//sentinel:resource
func Touch() {}
