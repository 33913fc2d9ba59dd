package variadic

import (
	"context"
	"errors"
	"testing"

	"example.com/golden/ruletest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// The guarded signatures stay variadic.
var (
	_ func(context.Context, string, ...string) (int, error) = (&GuardedLogger{}).Log
	_ func(...int) (int, error)                             = GuardedSum
)

func TestVariadicArgumentsAreForwarded(t *testing.T) {
	ruletest.UseFlow(t)
	inner := &Logger{}
	n, err := NewGuardedLogger(inner).Log(context.Background(), "info", "a", "b", "c")
	if n != 3 || err != nil || len(inner.Lines) != 1 || inner.Lines[0] != "info: a b c" {
		t.Fatalf("Log = %d, %v, lines %q; want all three messages written", n, err, inner.Lines)
	}
	msgs := []string{"x", "y"}
	if n, _ := NewGuardedLogger(inner).Log(context.Background(), "warn", msgs...); n != 2 {
		t.Fatalf("Log(msgs...) = %d; want 2", n)
	}
	if got, err := GuardedSum(1, 2, 3); got != 6 || err != nil {
		t.Fatalf("GuardedSum(1, 2, 3) = %d, %v; want 6", got, err)
	}
}

func TestVariadicHandlersReceiveTheSlice(t *testing.T) {
	ruletest.UseFlow(t)
	if n, err := NewGuardedLogger(&Logger{}).Log(context.Background(), "info"); n != 100 || err != nil {
		t.Fatalf("Log without messages = %d, %v; want the fallback's 100 for an empty slice", n, err)
	}
	ruletest.UseFlow(t,
		runtime.FlowRule{Resource: "variadic.log", Grade: runtime.FlowGradeQPS, Count: 0},
		runtime.FlowRule{Resource: "variadic.sum", Grade: runtime.FlowGradeQPS, Count: 0})
	if n, err := NewGuardedLogger(&Logger{}).Log(context.Background(), "info", "a", "b"); n != -2 || err != nil {
		t.Fatalf("blocked Log = %d, %v; want the blockHandler's -2", n, err)
	}
	got, err := GuardedSum(4, 5, 6, 7)
	if got != -4 || !errors.Is(err, runtime.ErrBlocked) {
		t.Fatalf("blocked GuardedSum = %d, %v; want the fallback's -4 and the block error", got, err)
	}
}
