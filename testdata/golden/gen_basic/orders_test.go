package basic

import (
	"context"
	"testing"

	"example.com/golden/ruletest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// The guarded type keeps the method set of *OrderService.
var (
	_ OrderCreator = (*OrderService)(nil)
	_ OrderCreator = (*GuardedOrderService)(nil)
)

const resource = "basic.createOrder"

// useRules puts rules in force for one test, under a manual clock.

func TestAdmittedCallReachesTheService(t *testing.T) {
	ruletest.Use(t, nil, nil)
	svc := &OrderService{}
	order, err := NewGuardedOrderService(svc).CreateOrder(context.Background(), &CreateOrderRequest{Item: "tea", Count: 2})
	if err != nil || order.Source != "service" || order.ID != "tea-2" || svc.Calls != 1 {
		t.Fatalf("got %+v, %v after %d calls; want the service's order", order, err, svc.Calls)
	}
	if NewGuardedOrderService(svc).Status() != "ok" {
		t.Fatal("Status is not passed through")
	}
}

func TestBlockedCallReachesBlockHandler(t *testing.T) {
	ruletest.Use(t, []runtime.FlowRule{{Resource: resource, Grade: runtime.FlowGradeQPS, Count: 0}}, nil)
	svc := &OrderService{}
	order, err := NewGuardedOrderService(svc).CreateOrder(context.Background(), &CreateOrderRequest{Item: "tea"})
	if err != nil || order.Source != "blockHandler" || order.ID != "queued-tea" {
		t.Fatalf("got %+v, %v; want the blockHandler's order", order, err)
	}
	if svc.Calls != 0 {
		t.Fatalf("the service ran %d times during a block", svc.Calls)
	}
}

func TestBusinessErrorReachesFallbackAndIsTraced(t *testing.T) {
	// One traced error opens this breaker, so the second call shows whether
	// the first error was traced.
	ruletest.Use(t, nil, []runtime.DegradeRule{{Resource: resource, Grade: runtime.DegradeErrorCount, Count: 0, MinRequestAmount: 1, TimeWindowSec: 10}})
	svc := &OrderService{Fail: ErrOutOfStock}
	guarded := NewGuardedOrderService(svc)
	order, err := guarded.CreateOrder(context.Background(), &CreateOrderRequest{Item: "tea"})
	if err != nil || order.Source != "fallback:out of stock" {
		t.Fatalf("got %+v, %v; want the fallback's order built from the error", order, err)
	}
	order, err = guarded.CreateOrder(context.Background(), &CreateOrderRequest{Item: "tea"})
	if err != nil || order.Source != "blockHandler" || svc.Calls != 1 {
		t.Fatalf("got %+v, %v after %d calls; want the open breaker to block the second call", order, err, svc.Calls)
	}
}

func TestPanicReleasesTheConcurrencySlot(t *testing.T) {
	ruletest.Use(t, []runtime.FlowRule{{Resource: resource, Grade: runtime.FlowGradeConcurrency, Count: 1}}, nil)
	svc := &OrderService{}
	guarded := NewGuardedOrderService(svc)

	// While one call is in flight the limit holds: a nested call is blocked.
	var nested *Order
	svc.During = func() {
		svc.During = nil // one nested call only, admitted or not
		nested, _ = guarded.CreateOrder(context.Background(), &CreateOrderRequest{Item: "nested"})
	}
	if _, err := guarded.CreateOrder(context.Background(), &CreateOrderRequest{Item: "tea"}); err != nil {
		t.Fatal(err)
	}
	if nested == nil || nested.Source != "blockHandler" {
		t.Fatalf("nested call got %+v; want it blocked by the concurrency limit", nested)
	}

	svc.During = func() { panic("order backend crashed") }
	func() {
		defer func() {
			if p := recover(); p != "order backend crashed" {
				t.Fatalf("recovered %v; want the method's panic unchanged", p)
			}
		}()
		_, _ = guarded.CreateOrder(context.Background(), &CreateOrderRequest{Item: "tea"})
		t.Fatal("the panic did not propagate")
	}()

	svc.During = nil
	order, err := guarded.CreateOrder(context.Background(), &CreateOrderRequest{Item: "tea"})
	if err != nil || order.Source != "service" {
		t.Fatalf("after a panic got %+v, %v; want the slot released and the call admitted", order, err)
	}
}
