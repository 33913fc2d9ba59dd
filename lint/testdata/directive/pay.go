// Package pay has a directive that does not check, so it declares no
// resource and its rule names nothing.
package pay

import "context"

// Pay pays.
//
//sentinel:resource name=directive.pay fallback=payFalback
func Pay(ctx context.Context, cents int) error { return nil }

func payFallback(ctx context.Context, cents int, err error) error { return nil }
