package noerror

import (
	"context"
	"testing"

	"example.com/golden/ruletest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

func TestAdmittedCallsWithoutErrorResult(t *testing.T) {
	ruletest.UseFlow(t)
	inner := &Cache{}
	cache := NewGuardedCache(inner)
	if got := cache.Lookup(context.Background(), "k"); got != "fresh k" {
		t.Fatalf("Lookup = %q; want the method's value", got)
	}
	cache.Warm(context.Background(), []string{"a", "b"})
	if inner.Warmed != 2 || inner.Skipped != 0 {
		t.Fatalf("warmed %d, skipped %d; want 2, 0", inner.Warmed, inner.Skipped)
	}
}

func TestBlockedCallsWithoutErrorResultReachTheBlockHandler(t *testing.T) {
	ruletest.UseFlow(t,
		runtime.FlowRule{Resource: "noerror.lookup", Grade: runtime.FlowGradeQPS, Count: 0},
		runtime.FlowRule{Resource: "noerror.warm", Grade: runtime.FlowGradeQPS, Count: 0})
	inner := &Cache{}
	cache := NewGuardedCache(inner)
	if got := cache.Lookup(context.Background(), "k"); got != "stale k" {
		t.Fatalf("Lookup = %q; want the blockHandler's value", got)
	}
	cache.Warm(context.Background(), []string{"a", "b", "c"})
	if inner.Warmed != 0 || inner.Skipped != 3 {
		t.Fatalf("warmed %d, skipped %d; want 0, 3", inner.Warmed, inner.Skipped)
	}
}
