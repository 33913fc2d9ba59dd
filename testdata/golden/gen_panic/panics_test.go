package panics

import (
	"context"
	"errors"
	"fmt"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// start is where the next test's clock starts: each test an hour later, so
// that no test sees the statistics of another in its windows.
var start = time.Hour

// use installs a manual clock and the degrade rules for the rest of t, and
// returns the clock so that a test can let a breaker's open time pass.
func use(t *testing.T, rules ...runtime.DegradeRule) *runtime.ManualClock {
	t.Helper()
	start += time.Hour
	clock := runtime.NewManualClock(start)
	runtime.SetClock(clock)
	if err := runtime.LoadRules(runtime.Rules{Degrade: rules}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = runtime.LoadRules(runtime.Rules{})
		runtime.SetClock(nil)
	})
	return clock
}

// errorRatio opens when more than half of at least five calls in a second
// fail, and stays open for ten seconds.
func errorRatio(resource string) runtime.DegradeRule {
	return runtime.DegradeRule{Resource: resource, Grade: runtime.DegradeErrorRatio, Count: 0.5,
		MinRequestAmount: 5, StatIntervalMs: 1000, TimeWindowSec: 10}
}

// firstError opens on the first traced error.
func firstError(resource string) runtime.DegradeRule {
	return runtime.DegradeRule{Resource: resource, Grade: runtime.DegradeErrorCount, Count: 0,
		MinRequestAmount: 1, StatIntervalMs: 1000, TimeWindowSec: 10}
}

// recovered runs call and returns what it panicked with, failing the test
// when it did not panic.
func recovered(t *testing.T, call func()) (p any) {
	t.Helper()
	panicked := true
	func() {
		defer func() { p = recover() }()
		call()
		panicked = false
	}()
	if !panicked {
		t.Fatal("the call did not panic")
	}
	return p
}

// crash is a panic value whose identity a test can check.
type crash struct{ n int }

func TestPanicsOpenTheErrorRatioBreaker(t *testing.T) {
	use(t, errorRatio("panics.fetch"))
	b := &Backend{}
	g := NewGuardedBackend(b)
	for i := range 5 {
		want := &crash{i}
		b.Panic = want
		if p := recovered(t, func() { _, _ = g.Fetch(context.Background(), "k") }); p != want {
			t.Fatalf("call %d: the caller recovered %v, want the backend's own %p", i, p, want)
		}
	}
	if s := resBackendFetch.Snapshot(); s.Error != 5 || s.Concurrency != 0 {
		t.Fatalf("after 5 panics: %+v; want 5 errors and nothing in flight", s)
	}
	if st := resBackendFetch.BreakerStates(); st[0] != runtime.StateOpen {
		t.Fatalf("after 5 panics out of 5 calls the error-ratio breaker is %v, want OPEN", st[0])
	}
	got, err := g.Fetch(context.Background(), "k")
	if !errors.Is(err, runtime.ErrBlocked) || got != "fallback" || b.Calls != 5 {
		t.Fatalf("got %q, %v after %d backend calls; want the open breaker to block", got, err, b.Calls)
	}
	if b.Fallbacks != 1 {
		t.Fatalf("the fallback ran %d times; want once, for the block: panics never reach it", b.Fallbacks)
	}
}

func TestPanickingHalfOpenProbeReopensTheBreaker(t *testing.T) {
	clock := use(t, errorRatio("panics.fetch"))
	b := &Backend{Err: errors.New("backend down")}
	g := NewGuardedBackend(b)
	// Open it with returned errors, so that only the probe panics.
	for range 5 {
		_, _ = g.Fetch(context.Background(), "k")
	}
	if st := resBackendFetch.BreakerStates(); st[0] != runtime.StateOpen {
		t.Fatalf("after 5 errors the breaker is %v, want OPEN", st[0])
	}
	clock.Advance(10*time.Second + time.Millisecond)

	b.Err, b.Panic = nil, "probe crashed"
	if p := recovered(t, func() { _, _ = g.Fetch(context.Background(), "k") }); p != "probe crashed" {
		t.Fatalf("the probe's caller recovered %v, want the backend's panic", p)
	}
	if st := resBackendFetch.BreakerStates(); st[0] != runtime.StateOpen {
		t.Fatalf("after a panicking probe the breaker is %v, want OPEN again", st[0])
	}
	b.Panic = nil
	calls := b.Calls
	if _, err := g.Fetch(context.Background(), "k"); !errors.Is(err, runtime.ErrBlocked) || b.Calls != calls {
		t.Fatalf("the call after the panicking probe got %v and reached the backend %d times; want it blocked",
			err, b.Calls-calls)
	}
}

func TestPanicValueReachesTheCallerUnchanged(t *testing.T) {
	use(t)
	b := &Backend{}
	g := NewGuardedBackend(b)
	ctx := context.Background()
	errValue := fmt.Errorf("wrapped: %w", ErrTimeout)
	for _, value := range []any{&crash{1}, errValue, "a string"} {
		b.Panic = value
		for name, call := range map[string]func(){
			"Fetch":     func() { _, _ = g.Fetch(ctx, "k") },
			"Abortable": func() { _ = g.Abortable(ctx) }, // recovered and panicked again
			"Timed":     func() { _ = g.Timed(ctx) },
			"Size":      func() { _ = g.Size(ctx) },
		} {
			if p := recovered(t, call); p != value {
				t.Errorf("%s: the caller recovered %#v, want %#v itself", name, p, value)
			}
		}
	}
	if b.Fallbacks != 0 {
		t.Errorf("the fallback ran %d times for panics; want never", b.Fallbacks)
	}

	// A run-time error, which is an error, goes through the filters of
	// Abortable and Timed and comes out as itself.
	var nilMap map[string]int
	runtimeErr := recovered(t, func() { nilMap["x"]++ })
	if _, ok := runtimeErr.(goruntime.Error); !ok {
		t.Fatalf("writing to a nil map panicked with %#v, not a runtime.Error", runtimeErr)
	}
	b.Panic = runtimeErr
	for name, call := range map[string]func(){
		"Fetch":     func() { _, _ = g.Fetch(ctx, "k") },
		"Abortable": func() { _ = g.Abortable(ctx) },
		"Timed":     func() { _ = g.Timed(ctx) },
	} {
		if p := recovered(t, call); p != runtimeErr {
			t.Errorf("%s: the caller recovered %#v, want the runtime.Error %#v itself", name, p, runtimeErr)
		}
	}
}

func TestIgnoredPanicIsNotTraced(t *testing.T) {
	use(t, firstError("panics.abortable"))
	b := &Backend{}
	g := NewGuardedBackend(b)
	for _, value := range []any{ErrAbort, fmt.Errorf("client gone: %w", ErrAbort)} {
		b.Panic = value
		recovered(t, func() { _ = g.Abortable(context.Background()) })
	}
	if s, st := resBackendAbortable.Snapshot(), resBackendAbortable.BreakerStates(); s.Error != 0 || st[0] != runtime.StateClosed {
		t.Fatalf("after panics with ignored errors: %+v, breaker %v; want no error traced", s, st[0])
	}
	b.Panic = "not an error"
	recovered(t, func() { _ = g.Abortable(context.Background()) })
	if st := resBackendAbortable.BreakerStates(); st[0] != runtime.StateOpen {
		t.Fatalf("a panic with a value ignore= does not match left the breaker %v, want OPEN", st[0])
	}
}

func TestTraceListJudgesPanics(t *testing.T) {
	use(t, firstError("panics.timed"))
	b := &Backend{Panic: "not an error"}
	g := NewGuardedBackend(b)
	recovered(t, func() { _ = g.Timed(context.Background()) })
	b.Panic = errors.New("some other failure")
	recovered(t, func() { _ = g.Timed(context.Background()) })
	if s := resBackendTimed.Snapshot(); s.Error != 0 {
		t.Fatalf("panics outside trace= were traced: %+v", s)
	}
	b.Panic = fmt.Errorf("read: %w", ErrTimeout)
	recovered(t, func() { _ = g.Timed(context.Background()) })
	if s, st := resBackendTimed.Snapshot(), resBackendTimed.BreakerStates(); s.Error != 1 || st[0] != runtime.StateOpen {
		t.Fatalf("after a panic with a traced error: %+v, breaker %v; want it traced and the breaker OPEN", s, st[0])
	}
}

func TestPanicWithoutErrorResultIsTraced(t *testing.T) {
	use(t, firstError("panics.size"))
	b := &Backend{Panic: "boom"}
	g := NewGuardedBackend(b)
	recovered(t, func() { _ = g.Size(context.Background()) })
	b.Panic = nil
	if n := g.Size(context.Background()); n != -1 || b.Calls != 1 {
		t.Fatalf("Size = %d after %d backend calls; want the blockHandler's -1: the panic opens the breaker", n, b.Calls)
	}
}

// TestGoexitIsTraced: a call that ends its goroutine did not return either.
// On the recovering path (Abortable) runtime.Goexit must go on, not stop.
func TestGoexitIsTraced(t *testing.T) {
	use(t, firstError("panics.fetch"), firstError("panics.abortable"))
	b := &Backend{Goexit: true}
	g := NewGuardedBackend(b)
	for name, call := range map[string]func(){
		"Fetch":     func() { _, _ = g.Fetch(context.Background(), "k") },
		"Abortable": func() { _ = g.Abortable(context.Background()) },
	} {
		finished, exited := make(chan bool), make(chan struct{})
		go func() {
			defer close(exited)
			call()
			finished <- true
		}()
		<-exited
		select {
		case <-finished:
			t.Errorf("%s: the goroutine went on after runtime.Goexit", name)
		default:
		}
	}
	for _, r := range []*runtime.Resource{resBackendFetch, resBackendAbortable} {
		if s, st := r.Snapshot(), r.BreakerStates(); s.Error != 1 || s.Concurrency != 0 || st[0] != runtime.StateOpen {
			t.Errorf("%s after runtime.Goexit: %+v, breaker %v; want one error, nothing in flight, OPEN", r.Name(), s, st[0])
		}
	}
}
