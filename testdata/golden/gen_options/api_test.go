package options

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

func TestResourcesWithOptionsAreGuarded(t *testing.T) {
	runtime.SetClock(runtime.NewManualClock(time.Hour))
	t.Cleanup(func() {
		_ = runtime.LoadFlowRules(nil)
		runtime.SetClock(nil)
	})
	if code, err := GuardedHandle(context.Background(), "/"); code != 200 || err != nil {
		t.Fatalf("GuardedHandle = %d, %v; want 200", code, err)
	}
	// The default name is the import path and the function name.
	rules := []runtime.FlowRule{
		{Resource: "options.handle", Grade: runtime.FlowGradeQPS, Count: 0},
		{Resource: "example.com/golden/gen_options.Query", Grade: runtime.FlowGradeQPS, Count: 0},
	}
	if err := runtime.LoadFlowRules(rules); err != nil {
		t.Fatal(err)
	}
	if _, err := GuardedHandle(context.Background(), "/"); !errors.Is(err, runtime.ErrBlocked) {
		t.Fatalf("blocked GuardedHandle err = %v; want the block error", err)
	}
	if _, err := GuardedQuery(context.Background(), "select 1"); !errors.Is(err, runtime.ErrBlocked) {
		t.Fatalf("blocked GuardedQuery err = %v; want the block error", err)
	}
}
