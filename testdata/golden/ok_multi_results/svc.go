// Package svc guards methods with several and named results.
package svc

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Service is guarded.
type Service struct{}

// Page returns several named results.
//
//sentinel:resource blockHandler=pageBlocked
func (s *Service) Page(ctx context.Context, offset, limit int) (items []string, next int, more bool, err error) {
	return nil, 0, false, nil
}

func (s *Service) pageBlocked(ctx context.Context, offset, limit int, blockErr *runtime.BlockError) ([]string, int, bool, error) {
	return nil, offset, false, blockErr
}
