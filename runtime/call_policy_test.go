package runtime

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestTimedOut(t *testing.T) {
	errDown := errors.New("downstream")
	expired, cancel := context.WithDeadline(context.Background(), time.Unix(1, 0))
	defer cancel()
	got := TimedOut(expired, "inventory", 800*time.Millisecond, errDown)
	var te *TimeoutError
	if !errors.As(got, &te) || te.Resource != "inventory" || te.Timeout != 800*time.Millisecond {
		t.Fatalf("TimedOut = %#v", got)
	}
	if !errors.Is(got, context.DeadlineExceeded) || !errors.Is(got, errDown) {
		t.Errorf("%v does not wrap both the deadline and the call's error", got)
	}
	if want := `sentinel: resource "inventory" timed out after 800ms: downstream`; got.Error() != want {
		t.Errorf("Error() = %q, want %q", got.Error(), want)
	}
	if late := TimedOut(expired, "inventory", time.Second, nil); late == nil || !errors.Is(late, context.DeadlineExceeded) {
		t.Errorf("a success after the deadline: %v, want a timeout", late)
	}
	if got := TimedOut(context.Background(), "inventory", time.Second, errDown); got != errDown {
		t.Errorf("within the deadline: %v, want the call's error unchanged", got)
	}
	canceled, stop := context.WithCancel(context.Background())
	stop()
	if got := TimedOut(canceled, "inventory", time.Second, errDown); got != errDown {
		t.Errorf("a cancelled context is not a timeout: %v", got)
	}
}

func TestRetryPolicyAttemptsAndBackoff(t *testing.T) {
	clock := NewManualClock(time.Hour)
	SetClock(clock)
	defer SetClock(nil)
	p := NewRetryPolicy(NewResource("test.retry.attempts"), 3, 40*time.Millisecond, 1)
	ctx := context.Background()
	for range 20 {
		p.Called()
	}
	for attempt := 1; attempt <= 3; attempt++ {
		if !p.Retry(ctx, attempt) {
			t.Fatalf("attempt %d was not retried", attempt)
		}
	}
	if p.Retry(ctx, 4) {
		t.Fatal("a fourth retry of retries=3")
	}
	sleeps := clock.Sleeps()
	if len(sleeps) > 3 {
		t.Fatalf("%d waits for 3 retries", len(sleeps))
	}
	for i, d := range sleeps {
		if d < 0 || d >= 40*time.Millisecond<<2 {
			t.Errorf("wait %d: %v, beyond the backoff bounds", i, d)
		}
	}
}

func TestRetryPolicyStopsOnOpenBreakerBudgetAndContext(t *testing.T) {
	clock := NewManualClock(time.Hour)
	SetClock(clock)
	defer SetClock(nil)
	res := NewResource("test.retry.stops")
	p := NewRetryPolicy(res, 2, 0, 0.1)
	ctx := context.Background()
	for range 10 {
		p.Called()
	}
	if !p.Retry(ctx, 1) {
		t.Fatal("the budget's first retry was refused")
	}
	if p.Retry(ctx, 1) {
		t.Fatal("a second retry of 10 calls passed a budget of 0.1")
	}

	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if NewRetryPolicy(res, 2, 0, 1).Retry(canceled, 1) {
		t.Fatal("retried for a cancelled context")
	}

	if err := LoadDegradeRules([]DegradeRule{{Resource: "test.retry.stops", Grade: DegradeErrorCount, Count: 1,
		TimeWindowSec: 60, MinRequestAmount: 1}}); err != nil {
		t.Fatal(err)
	}
	defer LoadDegradeRules(nil)
	for range 3 {
		var e Entry
		if res.EntryTo(&e, ctx) == nil {
			e.TraceError(errors.New("down"))
			e.Exit()
		}
	}
	if s := res.BreakerStates(); len(s) != 1 || s[0] != StateOpen {
		t.Fatalf("breaker states %v, want OPEN", s)
	}
	fresh := NewRetryPolicy(res, 2, 0, 1)
	fresh.Called()
	if fresh.Retry(ctx, 1) {
		t.Fatal("retried while the breaker is OPEN")
	}
}
