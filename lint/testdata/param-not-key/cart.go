// Package cart has hot-parameter rules on parameters that cannot be keys.
package cart

import "context"

// Address has no ParamFlowKey method.
type Address struct{ City string }

// Member chooses its key.
type Member struct{ Tier string }

// ParamFlowKey is the member's tier.
func (m *Member) ParamFlowKey() string { return m.Tier }

// Ship sends a cart.
//
//sentinel:resource name=notkey.ship
func Ship(ctx context.Context, to Address, note *string, by map[string]int, member *Member, ids []int) error {
	return nil
}
