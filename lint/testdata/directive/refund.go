package pay

import "context"

// Refund's directive checks, but the package's other one does not, so
// Refund's resource is not declared either until that one is fixed.
//
//sentinel:resource
func Refund(ctx context.Context, cents int) error { return nil }
