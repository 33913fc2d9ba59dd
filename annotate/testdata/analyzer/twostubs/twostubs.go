// Package twostubs names two handlers that do not exist yet in one
// directive: both stubs go after the method, and the one import they need
// turns the single import into a block.
package twostubs

import "context"

// Service is guarded.
type Service struct{}

// Get is guarded.
// want +2 "blockHandler onLimit not found" "fallback onError not found"
//
//sentinel:resource blockHandler=onLimit fallback=onError
func (s *Service) Get(ctx context.Context, id string) (string, error) {
	return id, nil
}
