// Package svc does not compile; nothing is generated from it.
package svc

import "context"

// Service is guarded.
type Service struct{}

// Get is guarded.
//
//sentinel:resource
func (s *Service) Get(ctx context.Context) error {
	var n int = "one"
	return undefinedHelper(n)
}
