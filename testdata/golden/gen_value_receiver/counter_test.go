package valuereceiver

import (
	"context"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

var (
	_ Reader = Counter{}
	_ Reader = (*GuardedCounter)(nil)
)

func TestValueReceiver(t *testing.T) {
	runtime.SetClock(runtime.NewManualClock(time.Hour))
	t.Cleanup(func() {
		_ = runtime.LoadFlowRules(nil)
		runtime.SetClock(nil)
	})
	c := &Counter{N: 4}
	g := NewGuardedCounter(c)
	if v, err := g.Value(context.Background()); v != 4 || err != nil {
		t.Fatalf("Value = %d, %v; want 4", v, err)
	}
	c.N = 5 // the wrapper sees the inner value as it is at call time
	if err := runtime.LoadFlowRules([]runtime.FlowRule{{Resource: "valuereceiver.value", Grade: runtime.FlowGradeQPS, Count: 0}}); err != nil {
		t.Fatal(err)
	}
	if v, err := g.Value(context.Background()); v != -5 || err != nil {
		t.Fatalf("blocked Value = %d, %v; want the blockHandler's -5", v, err)
	}
}
