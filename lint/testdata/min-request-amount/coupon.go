// Package coupon has low-traffic breakers that judge too few calls.
package coupon

import "context"

// Redeem redeems a coupon.
//
//sentinel:resource name=minreq.redeem fallback=redeemFallback
func Redeem(ctx context.Context, code string) error { return nil }

func redeemFallback(ctx context.Context, code string, err error) error { return nil }
