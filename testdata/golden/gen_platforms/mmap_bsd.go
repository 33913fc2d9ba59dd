//go:build darwin || freebsd

package platforms

import "context"

// Mmap exists on BSD-like systems.
//
//sentinel:resource name=platforms.mmap
func Mmap(ctx context.Context, size int) ([]byte, error) { return make([]byte, size), nil }
