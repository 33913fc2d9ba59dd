// Package orders is the createOrder service from the Sentinel articles this
// project started from, written for sentinelgen: the methods carry
// //sentinel:resource directives, `go generate` writes the guarded wrapper
// GuardedOrderService in sentinel_gen.go, and the handlers next to each
// method answer for the calls that rules refused or that failed.
//
// Package load drives traffic at it and cmd/orders prints what happens.
package orders

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// CreateOrderRequest is what a client sends to place an order.
type CreateOrderRequest struct {
	CustomerID string
	SKU        string
	Quantity   int
}

// maxQuantity caps one order line; larger orders go through sales, not the shop.
const maxQuantity = 100

// validate reports the first problem that makes req impossible to serve. Such
// requests are the client's fault: they must reach the client unchanged and
// must not count as failures of the service, hence `ignore=` in the directive.
func (req *CreateOrderRequest) validate() error {
	switch {
	case req == nil:
		return &ValidationError{Field: "request", Problem: "missing"}
	case strings.TrimSpace(req.CustomerID) == "":
		return &ValidationError{Field: "customerID", Problem: "empty"}
	case strings.TrimSpace(req.SKU) == "":
		return &ValidationError{Field: "sku", Problem: "empty"}
	case req.Quantity <= 0 || req.Quantity > maxQuantity:
		return &ValidationError{Field: "quantity", Problem: fmt.Sprintf("%d is outside 1..%d", req.Quantity, maxQuantity)}
	}
	return nil
}

// OrderStatus says how far an order got.
type OrderStatus uint8

const (
	// StatusConfirmed means the stock is reserved and the order is placed.
	StatusConfirmed OrderStatus = iota + 1
	// StatusPending means the order was accepted while the inventory could
	// not answer; the reservation is retried in the background and the
	// customer is notified when it settles. Only the fallback produces it.
	StatusPending
)

// String returns "confirmed" or "pending".
func (s OrderStatus) String() string {
	switch s {
	case StatusConfirmed:
		return "confirmed"
	case StatusPending:
		return "pending"
	}
	return fmt.Sprintf("OrderStatus(%d)", uint8(s))
}

// Order is the service's answer to an accepted request.
type Order struct {
	ID            string
	Request       CreateOrderRequest
	Status        OrderStatus
	ReservationID string // empty while Status is StatusPending
	Note          string // what the customer is told
}

// StockLevel is the answer to a stock query.
type StockLevel struct {
	SKU       string
	Available int
	// Estimated is true when the inventory could not be asked and Available
	// is the last level this service saw (0 if it never saw one).
	Estimated bool
}

// Inventory is the stock service CreateOrder and QueryStock depend on.
type Inventory interface {
	// Reserve takes qty units of sku off the shelf and returns the
	// reservation's identifier.
	Reserve(ctx context.Context, sku string, qty int) (reservationID string, err error)
	// Available returns how many units of sku are on the shelf.
	Available(ctx context.Context, sku string) (int, error)
}

// ValidationError reports a request the service refuses to serve.
type ValidationError struct {
	Field   string
	Problem string
}

// Error says which field is wrong and why.
func (e *ValidationError) Error() string {
	return "invalid order: " + e.Field + " " + e.Problem
}

// ErrInventoryUnavailable is what an Inventory returns when it cannot answer
// at all (connection refused, overloaded). It is one of the reasons the
// fallback counts separately.
var ErrInventoryUnavailable = errors.New("inventory unavailable")
