package orders

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// clock is the runtime's clock for the package's tests. Each test starts a
// minute after the previous one, so no statistic carries over.
var clock = runtime.NewManualClock(time.Hour)

func TestMain(m *testing.M) {
	runtime.SetClock(clock)
	os.Exit(m.Run())
}

// fakeInventory answers with fixed values and counts the calls it gets.
type fakeInventory struct {
	err      error
	level    int
	latency  time.Duration // added to the manual clock by each call
	reserves int
	queries  int
}

func (f *fakeInventory) Reserve(ctx context.Context, sku string, qty int) (string, error) {
	f.reserves++
	clock.Advance(f.latency)
	if f.err != nil {
		return "", f.err
	}
	return "rsv-" + sku, nil
}

func (f *fakeInventory) Available(ctx context.Context, sku string) (int, error) {
	f.queries++
	clock.Advance(f.latency)
	return f.level, f.err
}

// setup returns a guarded service over inv with the given rules in force
// until the test ends.
func setup(t *testing.T, inv *fakeInventory, flow []runtime.FlowRule, degrade []runtime.DegradeRule) (*OrderService, *GuardedOrderService) {
	t.Helper()
	clock.Advance(time.Minute)
	if err := runtime.LoadRules(runtime.Rules{Flow: flow, Degrade: degrade}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := runtime.LoadRules(runtime.Rules{}); err != nil {
			t.Error(err)
		}
	})
	inner := NewOrderService(inv)
	return inner, NewGuardedOrderService(inner)
}

func validRequest() *CreateOrderRequest {
	return &CreateOrderRequest{CustomerID: "c-1", SKU: "sku-7", Quantity: 2}
}

// tracedErrors is createOrder's error count in the runtime's current second.
func tracedErrors() int64 { return runtime.NewResource("createOrder").Snapshot().Error }

func TestCreateOrderConfirms(t *testing.T) {
	inv := &fakeInventory{}
	_, svc := setup(t, inv, nil, nil)
	order, err := svc.CreateOrder(context.Background(), validRequest())
	if err != nil {
		t.Fatal(err)
	}
	if order.Status != StatusConfirmed || order.ReservationID != "rsv-sku-7" || order.Request != *validRequest() {
		t.Errorf("got %+v", order)
	}
}

func TestInvalidRequestPassesThrough(t *testing.T) {
	inv := &fakeInventory{}
	inner, svc := setup(t, inv, nil, nil)
	req := validRequest()
	req.Quantity = 0
	order, err := svc.CreateOrder(context.Background(), req)
	var invalid *ValidationError
	if !errors.As(err, &invalid) || invalid.Field != "quantity" || order != nil {
		t.Fatalf("got %v, %v; want a *ValidationError on quantity", order, err)
	}
	if inv.reserves != 0 {
		t.Error("an invalid request reached the inventory")
	}
	if n := inner.Outcomes().Counts().TotalFallbacks(); n != 0 {
		t.Errorf("ignored error went to the fallback %d times", n)
	}
	if n := tracedErrors(); n != 0 {
		t.Errorf("ignored error was traced: %d errors", n)
	}
}

func TestFailedReservationFallsBackToPending(t *testing.T) {
	inv := &fakeInventory{err: ErrInventoryUnavailable}
	inner, svc := setup(t, inv, nil, nil)
	order, err := svc.CreateOrder(context.Background(), validRequest())
	if err != nil {
		t.Fatal(err)
	}
	if order.Status != StatusPending || order.ReservationID != "" || order.ID == "" {
		t.Errorf("got %+v, want a pending order", order)
	}
	if got := inner.Outcomes().Counts().Fallbacks[ReasonUnavailable]; got != 1 {
		t.Errorf("fallbacks for %s = %d, want 1", ReasonUnavailable, got)
	}
	if n := tracedErrors(); n != 1 {
		t.Errorf("%d errors traced, want 1", n)
	}
}

func TestFallbackPromisesNothingToAGoneClient(t *testing.T) {
	inv := &fakeInventory{err: context.Canceled}
	inner, svc := setup(t, inv, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	order, err := svc.CreateOrder(ctx, validRequest())
	if !errors.Is(err, context.Canceled) || order != nil {
		t.Errorf("got %v, %v; want the cancellation", order, err)
	}
	if n := inner.Outcomes().Counts().TotalFallbacks(); n != 0 {
		t.Errorf("counted %d fallbacks for a gone client", n)
	}
}

func TestFlowBlockAsksToRetry(t *testing.T) {
	inv := &fakeInventory{}
	inner, svc := setup(t, inv, []runtime.FlowRule{{Resource: "createOrder", Grade: runtime.FlowGradeQPS, Count: 1}}, nil)
	if _, err := svc.CreateOrder(context.Background(), validRequest()); err != nil {
		t.Fatal(err)
	}
	order, err := svc.CreateOrder(context.Background(), validRequest())
	typ, ok := IsRetryLater(err)
	if !ok || typ != runtime.BlockTypeFlow || order != nil || !errors.Is(err, runtime.ErrBlocked) {
		t.Fatalf("got %v, %v; want a flow RetryLaterError", order, err)
	}
	if !strings.Contains(err.Error(), "too many orders") {
		t.Errorf("message %q does not tell the customer why", err)
	}
	if c := inner.Outcomes().Counts(); c.BlockedFlow != 1 || c.BlockedDegrade != 0 || inv.reserves != 1 {
		t.Errorf("counts %+v, reserves %d", c, inv.reserves)
	}
}

func TestOpenBreakerAsksToRetryLater(t *testing.T) {
	inv := &fakeInventory{latency: 300 * time.Millisecond}
	inner, svc := setup(t, inv, nil, []runtime.DegradeRule{{
		Resource: "createOrder", Grade: runtime.DegradeSlowRatio, Count: 200,
		SlowRatioThreshold: 0.5, TimeWindowSec: 10, MinRequestAmount: 1,
	}})
	// One slow call is a slow ratio of 1 over the minimum of one call.
	if _, err := svc.CreateOrder(context.Background(), validRequest()); err != nil {
		t.Fatal(err)
	}
	_, err := svc.CreateOrder(context.Background(), validRequest())
	if typ, ok := IsRetryLater(err); !ok || typ != runtime.BlockTypeDegrade {
		t.Fatalf("got %v; want a degrade RetryLaterError", err)
	}
	if c := inner.Outcomes().Counts(); c.BlockedDegrade != 1 || c.BlockedFlow != 0 || inv.reserves != 1 {
		t.Errorf("counts %+v, reserves %d", c, inv.reserves)
	}
}

func TestQueryStockEstimatesFromMemory(t *testing.T) {
	inv := &fakeInventory{level: 42}
	inner, svc := setup(t, inv, []runtime.FlowRule{{Resource: "queryStock", Grade: runtime.FlowGradeQPS, Count: 2}}, nil)
	ctx := context.Background()

	got, err := svc.QueryStock(ctx, "sku-7")
	if err != nil || got != (StockLevel{SKU: "sku-7", Available: 42}) {
		t.Fatalf("healthy query: %+v, %v", got, err)
	}
	inv.err, inv.level = ErrInventoryUnavailable, 0
	got, err = svc.QueryStock(ctx, "sku-7")
	if err != nil || got != (StockLevel{SKU: "sku-7", Available: 42, Estimated: true}) {
		t.Errorf("failed query: %+v, %v; want the last level, estimated", got, err)
	}
	// The third query in the second is over the rule: with no
	// blockHandler, the fallback answers the block too.
	got, err = svc.QueryStock(ctx, "sku-9")
	if err != nil || got != (StockLevel{SKU: "sku-9", Estimated: true}) {
		t.Errorf("blocked query: %+v, %v; want an estimate of an unseen SKU", got, err)
	}
	if inv.queries != 2 {
		t.Errorf("inventory queried %d times, want 2", inv.queries)
	}
	f := inner.Outcomes().Counts().Fallbacks
	if f[ReasonUnavailable] != 1 || f[ReasonBlocked] != 1 {
		t.Errorf("fallback reasons %v, want one unavailable and one blocked", f)
	}
}

func TestValidate(t *testing.T) {
	cases := map[string]*CreateOrderRequest{
		"request":    nil,
		"customerID": {SKU: "s", Quantity: 1},
		"sku":        {CustomerID: "c", SKU: " ", Quantity: 1},
		"quantity":   {CustomerID: "c", SKU: "s", Quantity: maxQuantity + 1},
	}
	for field, req := range cases {
		var v *ValidationError
		if err := req.validate(); !errors.As(err, &v) || v.Field != field {
			t.Errorf("validate(%+v) = %v, want a problem with %s", req, err, field)
		}
	}
	if err := validRequest().validate(); err != nil {
		t.Errorf("valid request rejected: %v", err)
	}
}
