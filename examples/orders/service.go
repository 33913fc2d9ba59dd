package orders

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// OrderService places orders against an Inventory. Call it through
// NewGuardedOrderService (generated): the guarded wrapper applies the rules
// loaded for the resources named in the directives below.
type OrderService struct {
	inventory Inventory
	lastID    atomic.Uint64
	outcomes  Outcomes
	stock     stockMemory
}

// NewOrderService returns a service that reserves stock in inventory.
func NewOrderService(inventory Inventory) *OrderService {
	return &OrderService{inventory: inventory}
}

// Outcomes returns the counters of blocked and fallback answers.
func (s *OrderService) Outcomes() *Outcomes { return &s.outcomes }

// CreateOrder reserves the requested stock and places the order. It is the
// entrance of the service (entryType=in). An invalid request returns a
// *ValidationError, which the guard passes through untouched: it is neither
// traced as a failure nor answered by the fallback.
//
//sentinel:resource name=createOrder entryType=in blockHandler=createOrderBlocked fallback=createOrderFallback ignore=*ValidationError
func (s *OrderService) CreateOrder(ctx context.Context, req *CreateOrderRequest) (*Order, error) {
	if err := req.validate(); err != nil {
		return nil, err
	}
	reservation, err := s.inventory.Reserve(ctx, req.SKU, req.Quantity)
	if err != nil {
		return nil, fmt.Errorf("reserve %d x %s: %w", req.Quantity, req.SKU, err)
	}
	return &Order{
		ID:            s.nextID(),
		Request:       *req,
		Status:        StatusConfirmed,
		ReservationID: reservation,
		Note:          "order placed",
	}, nil
}

// createOrderBlocked answers a call that a rule refused before it reached
// the inventory. The client learns that nothing happened and that it may try
// again; which rule refused is kept in the error for logs, not shown.
func (s *OrderService) createOrderBlocked(ctx context.Context, req *CreateOrderRequest, blocked *runtime.BlockError) (*Order, error) {
	msg := "too many orders right now, please retry in a moment"
	if blocked.Type() == runtime.BlockTypeDegrade {
		s.outcomes.blockedDegrade.Add(1)
		msg = "ordering is paused while the stock service recovers, please retry in a few seconds"
	} else {
		s.outcomes.blockedFlow.Add(1)
	}
	return nil, &RetryLaterError{Message: msg, Cause: blocked}
}

// createOrderFallback answers a call whose reservation failed. It does no
// remote call of its own (the dependency just failed; a fallback that calls
// it again fails with it): the order is accepted as pending and reserved
// later, so the customer keeps the order instead of seeing an error.
func (s *OrderService) createOrderFallback(ctx context.Context, req *CreateOrderRequest, err error) (*Order, error) {
	if ctx.Err() != nil {
		// The client is gone: there is nobody to promise a pending order to.
		return nil, err
	}
	s.outcomes.addFallback(fallbackReason(err))
	return &Order{
		ID:      s.nextID(),
		Request: *req,
		Status:  StatusPending,
		Note:    "order received; stock confirmation will follow by message",
	}, nil
}

func (s *OrderService) nextID() string {
	return "ord-" + strconv.FormatUint(s.lastID.Add(1), 10)
}

// RetryLaterError is the answer to a call the service refused to attempt
// because a rule blocked it. Nothing was reserved; the client may retry.
type RetryLaterError struct {
	Message string              // what the customer is told
	Cause   *runtime.BlockError // the rule that refused the call
}

// Error returns the customer-facing message.
func (e *RetryLaterError) Error() string { return e.Message }

// Unwrap returns the block, so errors.Is(err, runtime.ErrBlocked) holds.
func (e *RetryLaterError) Unwrap() error { return e.Cause }

// IsRetryLater reports whether err is a refusal by a rule, and which kind.
func IsRetryLater(err error) (runtime.BlockType, bool) {
	var rl *RetryLaterError
	if errors.As(err, &rl) && rl.Cause != nil {
		return rl.Cause.Type(), true
	}
	return 0, false
}
