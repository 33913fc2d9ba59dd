package embedded

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

func TestPromotedHandlers(t *testing.T) {
	runtime.SetClock(runtime.NewManualClock(time.Hour))
	t.Cleanup(func() {
		_ = runtime.LoadFlowRules(nil)
		runtime.SetClock(nil)
	})
	svc := &Service{Base: Base{Name: "orders"}, Fallbacks: &Fallbacks{Answer: "cached item"}, Err: errors.New("down")}
	if got, err := NewGuardedService(svc).Get(context.Background(), 1); got != "cached item" || err != nil {
		t.Fatalf("failing Get = %q, %v; want the promoted fallback", got, err)
	}
	if err := runtime.LoadFlowRules([]runtime.FlowRule{{Resource: "embedded.get", Grade: runtime.FlowGradeQPS, Count: 0}}); err != nil {
		t.Fatal(err)
	}
	if got, err := NewGuardedService(svc).Get(context.Background(), 1); got != "orders busy" || err != nil {
		t.Fatalf("blocked Get = %q, %v; want the promoted blockHandler", got, err)
	}
}
