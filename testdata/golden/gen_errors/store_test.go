package errs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// breakerOnFirstError puts in force, for resource, a breaker that one traced
// error opens: whether the next call is blocked tells whether the error was
// traced.
func breakerOnFirstError(t *testing.T, resource string) {
	t.Helper()
	runtime.SetClock(runtime.NewManualClock(time.Hour))
	rule := runtime.DegradeRule{Resource: resource, Grade: runtime.DegradeErrorCount, Count: 0, MinRequestAmount: 1, TimeWindowSec: 10}
	if err := runtime.LoadDegradeRules([]runtime.DegradeRule{rule}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = runtime.LoadDegradeRules(nil)
		runtime.SetClock(nil)
	})
}

func TestGetIgnoredErrorsPassUnchangedAndUntraced(t *testing.T) {
	validation := &ValidationError{Field: "key"}
	for _, ignored := range []error{ErrNotFound, fmt.Errorf("lookup: %w", ErrNotFound), validation, io.EOF} {
		t.Run(ignored.Error(), func(t *testing.T) {
			breakerOnFirstError(t, "errs.get")
			inner := &Store{Err: ignored}
			store := NewGuardedStore(inner)
			for range 2 { // the breaker would block the second call if the first error were traced
				got, err := store.Get(context.Background(), "k")
				if got != "partial" || err != ignored || inner.Got != nil {
					t.Fatalf("got %q, %v, fallback saw %v; want the method's own results", got, err, inner.Got)
				}
			}
		})
	}
}

func TestGetOtherErrorsAreTracedAndAnsweredByFallback(t *testing.T) {
	breakerOnFirstError(t, "errs.get")
	failure := errors.New("disk failure")
	inner := &Store{Err: failure}
	store := NewGuardedStore(inner)
	got, err := store.Get(context.Background(), "k")
	if got != "fallback for k" || err != nil || inner.Got != failure {
		t.Fatalf("got %q, %v, fallback saw %v; want the fallback given the error", got, err, inner.Got)
	}
	got, err = store.Get(context.Background(), "k")
	if got != "fallback for k" || err != nil || !errors.Is(inner.Got, runtime.ErrBlocked) {
		t.Fatalf("second call got %q, %v, fallback saw %v; want the breaker opened by the traced error to block it", got, err, inner.Got)
	}
}

func TestPutTracesOnlyTraceErrorsAndIgnoreWins(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		traced bool
	}{
		{"trace value", ErrTimeout, true},
		{"trace value wrapped", fmt.Errorf("put: %w", ErrTimeout), true},
		{"trace type", &TimeoutError{Op: "net"}, true},
		{"not in trace", ErrDenied, false},
		{"ignore wins over trace", ErrSlowDisk, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			breakerOnFirstError(t, "errs.put")
			store := NewGuardedStore(&Store{Err: tt.err})
			err := store.Put(context.Background(), "k", "v")
			if tt.traced {
				if err == nil || err.Error() != "put queued\n"+tt.err.Error() {
					t.Fatalf("err = %v; want the fallback's error", err)
				}
			} else if err != tt.err {
				t.Fatalf("err = %v; want %v unchanged", err, tt.err)
			}
			err = store.Put(context.Background(), "k", "v")
			if blocked := errors.Is(err, runtime.ErrBlocked); blocked != tt.traced {
				t.Fatalf("second call err = %v: blocked %v, want %v (the breaker opens on a traced error only)", err, blocked, tt.traced)
			}
		})
	}
}
