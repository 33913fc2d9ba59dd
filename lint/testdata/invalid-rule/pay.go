// Package pay has a rule file the reader rejects.
package pay

import "context"

// Charge charges a card.
//
//sentinel:resource name=invalid.charge fallback=chargeFallback
func Charge(ctx context.Context, cents int) error { return nil }

func chargeFallback(ctx context.Context, cents int, err error) error { return nil }
