// Package paramflow guards methods whose parameters hot-parameter rules
// index: the wrapper declares the names of the parameters after ctx on the
// resource and, only while a param rule names the resource, hands the
// runtime one typed key per parameter, converted from its static type.
package paramflow

import (
	"context"
	"errors"
	"strconv"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// ErrUnknown is Detail's business error.
var ErrUnknown = errors.New("unknown sku")

// SKU is a named string: its key is the string.
type SKU string

// Qty is a named integer: its key is the integer.
type Qty int32

// Customer chooses its own key through the key method. The key is a field,
// not built per call: the runtime keeps the key of a value it has not seen,
// so a key built by the method would be allocated on every call.
type Customer struct {
	ID     int
	Handle string
}

// ParamFlowKey is the customer's hot-parameter key.
func (c Customer) ParamFlowKey() string { return c.Handle }

// Member is a key-method type passed by pointer: a nil *Member is no key.
type Member struct{ Tier string }

// ParamFlowKey is the member's tier.
func (m *Member) ParamFlowKey() string { return m.Tier }

// Address is a struct without a key method: it cannot be a key.
type Address struct{ City string }

// Catalog serves product pages and orders.
type Catalog struct{ Calls int }

// Detail returns the page of sku.
//
//sentinel:resource name=paramflow.detail blockHandler=detailBlocked
func (c *Catalog) Detail(ctx context.Context, sku string, qty int) (string, error) {
	c.Calls++
	if sku == "" {
		return "", ErrUnknown
	}
	return sku + " x" + strconv.Itoa(qty), nil
}

func (c *Catalog) detailBlocked(ctx context.Context, sku string, qty int, blockErr *runtime.BlockError) (string, error) {
	return "busy:" + blockErr.Value(), nil
}

// Order places an order; its parameters cover every kind of key.
//
//sentinel:resource name=paramflow.order
func (c *Catalog) Order(ctx context.Context, sku SKU, qty Qty, gift bool, price float64, who Customer, tags []string, to Address, member *Member) error {
	c.Calls++
	return nil
}

// Lookup finds key in a generic index; K's type set is all strings, so the
// key is string(key).
//
//sentinel:resource name=paramflow.lookup
func Lookup[K ~string](ctx context.Context, key K) (int, error) {
	return len(key), nil
}

// Count counts ids in region; without a context.Context, every parameter is
// a hot parameter, and the variadic ids is checked element by element.
//
//sentinel:resource name=paramflow.count
func Count(region string, ids ...uint16) (int, error) {
	return len(ids), nil
}
