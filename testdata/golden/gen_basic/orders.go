// Package basic is the seeds' createOrder service: a method guarded with a
// blockHandler and a fallback.
package basic

import (
	"context"
	"errors"
	"fmt"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// CreateOrderRequest asks for an order.
type CreateOrderRequest struct {
	Item  string
	Count int
}

// Order is a created order; Source says which path produced it.
type Order struct {
	ID     string
	Source string
}

// OrderCreator is what callers depend on; *OrderService and its guarded
// wrapper both satisfy it.
type OrderCreator interface {
	CreateOrder(ctx context.Context, req *CreateOrderRequest) (*Order, error)
}

// ErrOutOfStock is the business error the service returns.
var ErrOutOfStock = errors.New("out of stock")

// OrderService creates orders. Fail makes CreateOrder return its error;
// During, when set, runs inside the call; Calls counts the real calls.
type OrderService struct {
	Fail   error
	During func()
	Calls  int
}

// CreateOrder creates an order.
//
//sentinel:resource name=basic.createOrder blockHandler=createOrderBlocked fallback=createOrderFallback
func (s *OrderService) CreateOrder(ctx context.Context, req *CreateOrderRequest) (*Order, error) {
	s.Calls++
	if s.During != nil {
		s.During()
	}
	if s.Fail != nil {
		return nil, s.Fail
	}
	return &Order{ID: fmt.Sprintf("%s-%d", req.Item, req.Count), Source: "service"}, nil
}

func (s *OrderService) createOrderBlocked(ctx context.Context, req *CreateOrderRequest, blockErr *runtime.BlockError) (*Order, error) {
	return &Order{ID: "queued-" + req.Item, Source: "blockHandler"}, nil
}

func (s *OrderService) createOrderFallback(ctx context.Context, req *CreateOrderRequest, err error) (*Order, error) {
	return &Order{ID: "later-" + req.Item, Source: "fallback:" + err.Error()}, nil
}

// Status is not annotated: the wrapper passes it through by embedding.
func (s *OrderService) Status() string { return "ok" }
