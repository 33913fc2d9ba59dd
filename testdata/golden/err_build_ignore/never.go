//go:build ignore

package svc

import "context"

// Never is in a file excluded from every build.
//
//sentinel:resource name=ignore.never
func Never(ctx context.Context) error { return nil }
