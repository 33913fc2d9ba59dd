package callpolicy

import (
	"context"
	"errors"
	"testing"
	"time"

	"example.com/golden/ruletest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// window moves each test's manual clock past the retry budgets' windows of
// the tests before it: the budgets are package-level, like the resources.
var window time.Duration

func useRules(t *testing.T, rules runtime.Rules) *runtime.ManualClock {
	t.Helper()
	clock := ruletest.UseRules(t, rules)
	window += time.Minute
	clock.Advance(window)
	return clock
}

func errorCountBreaker(resource string) runtime.Rules {
	return runtime.Rules{Degrade: []runtime.DegradeRule{{Resource: resource, Grade: runtime.DegradeErrorCount,
		Count: 0, MinRequestAmount: 1, TimeWindowSec: 10}}}
}

func TestTimeoutGoesToTheFallbackAndIsTraced(t *testing.T) {
	useRules(t, errorCountBreaker("callpolicy.reserve"))
	inner := &Inventory{Wait: true}
	g := NewGuardedInventory(inner)
	n, err := g.Reserve(context.Background(), "sku-1")
	var te *runtime.TimeoutError
	if n != -1 || err != nil || !errors.As(inner.Got, &te) || te.Timeout != 30*time.Millisecond || !errors.Is(inner.Got, context.DeadlineExceeded) {
		t.Fatalf("got %d, %v; fallback saw %v; want the fallback given a 30ms timeout", n, err, inner.Got)
	}
	if te.Resource != "callpolicy.reserve" {
		t.Errorf("timeout of resource %q", te.Resource)
	}
	inner.Wait = false
	if n, _ := g.Reserve(context.Background(), "sku-1"); n != -1 || !errors.Is(inner.Got, runtime.ErrBlocked) {
		t.Fatalf("after the timeout: %d, fallback saw %v; want the breaker the timeout opened to block", n, inner.Got)
	}
}

func TestWithinTheTimeoutTheResultStands(t *testing.T) {
	useRules(t, runtime.Rules{})
	if n, err := NewGuardedInventory(&Inventory{}).Reserve(context.Background(), "sku-1"); n != 7 || err != nil {
		t.Fatalf("got %d, %v", n, err)
	}
}

func TestRetriesUntilSuccess(t *testing.T) {
	clock := useRules(t, runtime.Rules{})
	inner := &Inventory{}
	g := NewGuardedInventory(inner)
	for range 10 { // calls that leave the budget room for retries
		if _, err := g.Fetch(context.Background(), "a"); err != nil {
			t.Fatal(err)
		}
	}
	inner.Calls.Store(0)
	clock.ResetSleeps()
	inner.Fail.Store(2)
	got, err := g.Fetch(context.Background(), "b")
	if got != "item b" || err != nil || inner.Calls.Load() != 3 {
		t.Fatalf("got %q, %v after %d calls; want the third attempt's result", got, err, inner.Calls.Load())
	}
	sleeps := clock.Sleeps()
	if len(sleeps) > 2 {
		t.Fatalf("%d waits for two retries", len(sleeps))
	}
	for i, d := range sleeps {
		if d < 0 || d >= time.Millisecond<<i {
			t.Errorf("wait %d lasted %v, beyond its bound %v", i, d, time.Millisecond<<i)
		}
	}
}

func TestRetriesExhaustedGoToTheFallbackWithTheLastError(t *testing.T) {
	useRules(t, runtime.Rules{})
	inner := &Inventory{}
	g := NewGuardedInventory(inner)
	for range 10 {
		_, _ = g.Fetch(context.Background(), "a")
	}
	inner.Calls.Store(0)
	inner.Fail.Store(100)
	got, err := g.Fetch(context.Background(), "b")
	if got != "cached b" || err != nil || inner.Calls.Load() != 3 || inner.Got == nil || inner.Got.Error() != "inventory unavailable" {
		t.Fatalf("got %q, %v after %d calls, fallback saw %v; want three attempts then the fallback", got, err, inner.Calls.Load(), inner.Got)
	}
}

func TestIgnoredErrorsAreNotRetried(t *testing.T) {
	useRules(t, runtime.Rules{})
	inner := &Inventory{Missing: true}
	got, err := NewGuardedInventory(inner).Fetch(context.Background(), "x")
	if got != "" || err != ErrNotFound || inner.Calls.Load() != 1 || inner.Got != nil {
		t.Fatalf("got %q, %v after %d calls; want ErrNotFound unchanged from one call", got, err, inner.Calls.Load())
	}
}

func TestNoRetryOnceTheBreakerIsOpen(t *testing.T) {
	useRules(t, errorCountBreaker("callpolicy.fetch"))
	inner := &Inventory{}
	g := NewGuardedInventory(inner)
	inner.Fail.Store(100)
	got, _ := g.Fetch(context.Background(), "b")
	if got != "cached b" || inner.Calls.Load() != 1 || inner.Got == nil || errors.Is(inner.Got, runtime.ErrBlocked) {
		t.Fatalf("got %q after %d calls, fallback saw %v; want one call, its error to the fallback", got, inner.Calls.Load(), inner.Got)
	}
}

func TestTheBudgetBoundsRetries(t *testing.T) {
	useRules(t, runtime.Rules{})
	inner := &Inventory{}
	g := NewGuardedInventory(inner)
	inner.Fail.Store(1000)
	const calls = 40
	for range calls {
		_, _ = g.Fetch(context.Background(), "b")
	}
	// A budget of 0.5: at most 20 retries for 40 calls.
	if n := inner.Calls.Load(); n > calls+calls/2 || n <= calls {
		t.Fatalf("%d attempts for %d calls, want more than %d and at most %d", n, calls, calls, calls+calls/2)
	}
}

func TestEachAttemptHasItsOwnDeadline(t *testing.T) {
	useRules(t, runtime.Rules{})
	inner := &Inventory{Wait: true}
	start := time.Now()
	err := NewGuardedInventory(inner).Sync(context.Background())
	var te *runtime.TimeoutError
	if !errors.As(err, &te) || te.Timeout != 20*time.Millisecond || inner.Calls.Load() != 2 {
		t.Fatalf("got %v after %d calls; want a timeout after two attempts", err, inner.Calls.Load())
	}
	if d := time.Since(start); d < 40*time.Millisecond {
		t.Errorf("two attempts of 20ms each took %v", d)
	}
}
