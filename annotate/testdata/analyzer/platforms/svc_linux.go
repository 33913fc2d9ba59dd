package platforms

import "context"

// Sync is guarded on Linux only.
//
//sentinel:resource name=platforms.syncLinux fallback=syncFallback
func (s *Service) Sync(ctx context.Context) error { return nil }

func (s *Service) syncFallback(ctx context.Context, err error) error { return err }
