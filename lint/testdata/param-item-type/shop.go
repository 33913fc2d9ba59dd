// Package shop has hot-parameter items of the wrong kind.
package shop

import "context"

// Customer chooses its key: a string.
type Customer struct{ ID string }

// ParamFlowKey is the customer's id.
func (c Customer) ParamFlowKey() string { return c.ID }

// Buy places an order.
//
//sentinel:resource name=itemtype.buy
func Buy(ctx context.Context, sku string, qty int, gift bool, who Customer, tags []string, price float64, flags uint8) error {
	return nil
}
