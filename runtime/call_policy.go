package runtime

import (
	"context"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime/internal/retrybudget"
)

// TimeoutError is the error of a guarded call that ran past the deadline its
// directive's timeout= gave it. It counts as an error for the breakers and
// the fallback receives it. errors.Is finds context.DeadlineExceeded in it,
// and the error the call returned, if any.
type TimeoutError struct {
	// Resource is the guarded resource.
	Resource string
	// Timeout is the directive's timeout.
	Timeout time.Duration
	// Err is what the call returned: nil when it returned no error after
	// the deadline had passed.
	Err error
}

// Error says which resource timed out after how long, then the call's own
// error.
func (e *TimeoutError) Error() string {
	s := "sentinel: resource " + strconv.Quote(e.Resource) + " timed out after " + e.Timeout.String()
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns context.DeadlineExceeded and the call's error.
func (e *TimeoutError) Unwrap() []error {
	if e.Err == nil {
		return []error{context.DeadlineExceeded}
	}
	return []error{context.DeadlineExceeded, e.Err}
}

// TimedOut returns the error a call that took its deadline (from
// WithTimeout's context) should report: a *TimeoutError when ctx's deadline
// has passed, else err unchanged. Generated wrappers call it.
func TimedOut(ctx context.Context, resource string, timeout time.Duration, err error) error {
	if ctx.Err() != context.DeadlineExceeded {
		return err
	}
	return &TimeoutError{Resource: resource, Timeout: timeout, Err: err}
}

// RetryPolicy is a resource's retries= of its directive: how many times a
// failed call is tried again, the backoff between attempts and the retry
// budget. Generated wrappers make one per resource and call Called once per
// call and Retry after each failed attempt. Each attempt enters the resource
// again and counts in its statistics as a call of its own. A RetryPolicy is
// safe for concurrent use.
type RetryPolicy struct {
	res     *Resource
	retries int
	backoff time.Duration
	budget  *retrybudget.Budget
}

// NewRetryPolicy returns the policy of res: at most retries retries, the
// first after a random wait of up to backoff, each later one up to twice
// the previous bound ("full jitter"), and retries at most budget (0 < budget
// <= 1) of the calls over the last ten seconds.
func NewRetryPolicy(res *Resource, retries int, backoff time.Duration, budget float64) *RetryPolicy {
	return &RetryPolicy{res: res, retries: retries, backoff: backoff, budget: retrybudget.New(budget)}
}

// Called counts a call, its first attempt, towards the retry budget.
func (p *RetryPolicy) Called() { p.budget.Call(nowNanos() / 1e6) }

// Retry reports whether a call whose attempt failed (1 for the first
// attempt) is tried again, after waiting out its backoff. It is not when
// that was the last attempt the policy allows, when a circuit breaker of the
// resource is OPEN, when the retry budget has no room, or when ctx ends
// before the wait does.
func (p *RetryPolicy) Retry(ctx context.Context, attempt int) bool {
	if attempt > p.retries || ctx.Err() != nil || p.breakerOpen() {
		return false
	}
	if !p.budget.TryRetry(nowNanos() / 1e6) {
		return false
	}
	if bound := p.backoff << (attempt - 1); bound > 0 && p.backoff > 0 {
		if d := rand.N(bound); d > 0 {
			if !wait(ctx, d) {
				return false
			}
		}
	}
	return true
}

// breakerOpen reports whether a breaker of the resource is OPEN.
func (p *RetryPolicy) breakerOpen() bool {
	rs := p.res.rules.Load()
	if rs == nil {
		return false
	}
	for _, b := range rs.degrade {
		if b.State() == StateOpen {
			return true
		}
	}
	return false
}

// wait sleeps d on the Clock in force, or until ctx ends, and reports
// whether the full wait passed. The default clock's wait is a timer that
// ctx can cut short; another Clock (a test's ManualClock) sleeps its own way.
func wait(ctx context.Context, d time.Duration) bool {
	if activeClock.Load().c != Clock(systemClock) || ctx.Done() == nil {
		sleep(d)
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
