// Package svc has directives with unknown keys.
package svc

import "context"

// Service is guarded.
type Service struct{}

// Get uses a misspelt key and a Java attribute name.
//
//sentinel:resource blockhandler=getBlocked exceptionsToIgnore=ErrX colour=red
func (s *Service) Get(ctx context.Context) error { return nil }
