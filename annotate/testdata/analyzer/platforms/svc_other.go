//go:build !linux

package platforms

import "context"

// Sync is unguarded elsewhere.
func (s *Service) Sync(ctx context.Context) error { return nil }
