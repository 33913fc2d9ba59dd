// Package profile reads its rules from Sentinel JSON written for Java.
package profile

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Profile reads a user profile.
//
//sentinel:resource name=warning.profile blockHandler=profileBlocked
func Profile(ctx context.Context, user string) (string, error) { return "", nil }

func profileBlocked(ctx context.Context, user string, blocked *runtime.BlockError) (string, error) {
	return "", blocked
}
