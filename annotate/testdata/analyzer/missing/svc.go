// Package missing holds a directive and, as its name says, its generated file.
package missing

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Service is guarded.
type Service struct{}

// Get is guarded.
// want +2 `^sentinel_gen.go is missing; run go generate$`
//
//sentinel:resource name=missing.get blockHandler=getBlocked
func (s *Service) Get(ctx context.Context, id string) (string, error) {
	return id, nil
}

func (s *Service) getBlocked(ctx context.Context, id string, blockErr *runtime.BlockError) (string, error) {
	return "", blockErr
}
