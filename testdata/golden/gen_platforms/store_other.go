//go:build !linux && !windows

package platforms

import "context"

// Sync is a no-op elsewhere, and unguarded.
func (s *Store) Sync(ctx context.Context) error { return nil }
