// Package pay has a directive that does not check, so it declares no
// resource. Its rules are not reported as unknown resources for that: the
// directive error is the one thing to fix. A misspelt rule still is.
package pay

import "context"

// Pay pays.
//
//sentinel:resource name=directive.pay fallback=payFalback
func Pay(ctx context.Context, cents int) error { return nil }

func payFallback(ctx context.Context, cents int, err error) error { return nil }
