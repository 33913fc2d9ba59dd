// Package leftover holds a directive and, as its name says, its generated file.
package leftover // want `^sentinel_gen.go is left over: the package has no //sentinel:resource left; run go generate to delete it$`

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Service is guarded.
type Service struct{}

// Get is no longer guarded.
func (s *Service) Get(ctx context.Context, id string) (string, error) {
	return id, nil
}

func (s *Service) getBlocked(ctx context.Context, id string, blockErr *runtime.BlockError) (string, error) {
	return "", blockErr
}
